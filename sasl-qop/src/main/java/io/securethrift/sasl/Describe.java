package io.securethrift.sasl;

/** Error text for people: the messages along a cause chain, each once. */
final class Describe {
  private Describe() {}

  static String chain(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && !s.toString().contains(m)) {
        s.append(s.length() == 0 ? "" : ": ").append(m);
      }
    }
    return s.length() == 0 ? e.getClass().getSimpleName() : s.toString();
  }
}
