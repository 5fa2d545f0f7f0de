package io.securethrift.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files every benchmark's report is written as, and the page they all share. */
class ReportFilesTest {
  @TempDir
  Path dir;

  @Test
  void writesEveryFileInOrderAsUtf8IntoADirectoryItCreates() throws Exception {
    Path out = dir.resolve("a/b");
    List<Path> written = ReportFiles.write(out, List.of(Map.entry("z.csv", "x,y\n1,2\n"),
        Map.entry("a.json", "{\"µs\": 1}\n"), Map.entry("m.html", "")));
    assertEquals(List.of(out.resolve("z.csv"), out.resolve("a.json"), out.resolve("m.html")), written,
        "in the order given, not by name");
    assertEquals("x,y\n1,2\n", Files.readString(written.get(0), StandardCharsets.UTF_8));
    assertEquals("{\"µs\": 1}\n", Files.readString(written.get(1), StandardCharsets.UTF_8));
    assertEquals(11, Files.size(written.get(1)), "µ is two bytes in UTF-8");
    assertEquals(0, Files.size(written.get(2)));
    assertThrows(UnsupportedOperationException.class, () -> written.add(out));
  }

  @Test
  void aSecondRunReplacesTheFilesOfTheFirst() throws Exception {
    ReportFiles.write(dir, List.of(Map.entry("r.csv", "a long first run\n")));
    ReportFiles.write(dir, List.of(Map.entry("r.csv", "short\n")));
    assertEquals("short\n", Files.readString(dir.resolve("r.csv"), StandardCharsets.UTF_8));
  }

  @Test
  void aDirectoryThatIsAFileIsAnError() throws Exception {
    Path file = Files.writeString(dir.resolve("taken"), "x");
    assertThrows(IOException.class, () -> ReportFiles.write(file, List.of(Map.entry("r.csv", ""))));
  }

  @Test
  void thePageHasTheTitleTheHeadingTheBodyAsItIsAndTheTextEscaped() {
    assertEquals("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>securethrift my-bench</title></head>"
        + "<body>\n<h1>Mine &amp; theirs</h1>\n<p>a</p>\n<svg/>\n<pre>| x | &lt;y&gt; |\n</pre>\n</body></html>\n",
        ReportFiles.page("my-bench", "Mine & theirs", "<p>a</p>\n<svg/>\n", "| x | <y> |\n"));
  }

  @Test
  void thePageEscapesItsNameAndKeepsAnEmptyBody() {
    assertEquals("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>securethrift &quot;a&quot;</title>"
        + "</head><body>\n<h1></h1>\n<pre></pre>\n</body></html>\n", ReportFiles.page("\"a\"", "", "", ""));
  }
}
