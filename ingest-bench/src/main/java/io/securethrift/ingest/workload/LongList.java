package io.securethrift.ingest.workload;

import java.util.Arrays;

/** A growable array of primitive longs: 8 bytes per element, where a {@code List<Long>} costs about 24. */
final class LongList {

  private static final int MAX_SIZE = Integer.MAX_VALUE - 8;

  private long[] elements = new long[1024];
  private int size;

  void add(long element) {
    if (size == elements.length) {
      if (size == MAX_SIZE) {
        throw new IllegalStateException("more than " + MAX_SIZE + " elements");
      }
      elements = Arrays.copyOf(elements, (int) Math.min(MAX_SIZE, 2L * size));
    }
    elements[size++] = element;
  }

  long get(int index) {
    return elements[index];
  }

  void set(int index, long element) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index + " is not below the size " + size);
    }
    elements[index] = element;
  }

  /** Where {@code element} is, by binary search: the list must be sorted. Negative when absent. */
  int search(long element) {
    return Arrays.binarySearch(elements, 0, size, element);
  }

  int size() {
    return size;
  }

  void sort() {
    Arrays.sort(elements, 0, size);
  }
}
