package io.securethrift.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LineRecordTest {
  @Test
  void fieldsSurviveTheLineWhateverTheirText() {
    LineRecord sent = LineRecord.of("RESULT").with("entries", 1000L).with("ms", 1.5)
        .with("message", "a b=c\nd%").with("rows", List.of("r,1", "r 2", "")).with("none", List.of());
    LineRecord got = LineRecord.parse(sent.encode());

    assertEquals("RESULT", got.kind());
    assertEquals(1000L, got.getLong("entries"));
    assertEquals(1.5, got.getDouble("ms"));
    assertEquals("a b=c\nd%", got.get("message"));
    assertEquals(List.of("r,1", "r 2", ""), got.getList("rows"));
    assertEquals(List.of(), got.getList("none"));
  }

  @Test
  void aMissingOrMalformedFieldNamesItselfAndTheLine() {
    LineRecord r = LineRecord.parse("RESULT entries=x");
    assertEquals("RESULT record has no field 'bytes': RESULT entries=x",
        assertThrows(IllegalArgumentException.class, () -> r.get("bytes")).getMessage());
    assertEquals("RESULT record's field 'entries' is not an integer: RESULT entries=x",
        assertThrows(IllegalArgumentException.class, () -> r.getLong("entries")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> LineRecord.parse("RESULT 12 13"));
  }
}
