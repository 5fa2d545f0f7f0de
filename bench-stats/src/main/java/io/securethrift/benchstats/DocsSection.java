package io.securethrift.benchstats;

/**
 * The part of a document a benchmark's {@code docs} command owns: the text between a begin and an end marker line,
 * replaced whole with a run's tables, so that figures in the docs always come from a run and never by hand.
 *
 * @param begin the marker line before the section
 * @param end the marker line after it
 */
public record DocsSection(String begin, String end) {

  /** The markers of {@code tool}'s section: {@code <!-- TOOL results: written by 'TOOL docs', ... -->}. */
  public static DocsSection of(String tool) {
    return new DocsSection("<!-- " + tool + " results: written by '" + tool + " docs', do not edit by hand -->",
        "<!-- end of " + tool + " results -->");
  }

  /**
   * {@code text} with its section replaced by {@code section}.
   *
   * @throws IllegalArgumentException naming {@code document} and both markers when they are missing or out of order
   */
  public String replace(String text, String section, String document) {
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from < 0 || to < from) {
      throw new IllegalArgumentException(document + " has no '" + begin + "' line followed by an '" + end
          + "' line; add both where the tables belong");
    }
    return text.substring(0, from + begin.length()) + "\n\n" + section + "\n" + text.substring(to);
  }
}
