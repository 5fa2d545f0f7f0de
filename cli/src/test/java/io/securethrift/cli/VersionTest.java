package io.securethrift.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class VersionTest {
  @Test
  void versionOptionPrintsTheBuiltVersionAndCommit() {
    StringWriter out = new StringWriter();
    picocli.CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out, true));
    assertEquals(0, cli.execute("--version"));
    assertTrue(out.toString().matches("securethrift \\S+ \\((commit [0-9a-f]+(-dirty)?|unknown commit)\\)\\R"),
        out.toString());
  }

  @Test
  void withoutGitTheCommitIsUnknown() {
    Properties p = new Properties();
    p.setProperty("version", "1.2.3");
    p.setProperty("commit", "${git.commit.id.describe}");
    assertEquals("securethrift 1.2.3 (unknown commit)", Version.line(p));
    p.setProperty("commit", "abc1234");
    assertEquals("securethrift 1.2.3 (commit abc1234)", Version.line(p));
    // A build of uncommitted changes says so, rather than passing for the commit before them.
    p.setProperty("commit", "abc1234-dirty");
    assertEquals("securethrift 1.2.3 (commit abc1234-dirty)", Version.line(p));
  }
}
