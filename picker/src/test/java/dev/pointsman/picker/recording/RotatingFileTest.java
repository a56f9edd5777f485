package dev.pointsman.picker.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RotatingFileTest {
  @TempDir Path dir;

  private static String line(int i) {
    return "{\"timestamp\":" + (1000 + i) + "}"; // 18 bytes + newline
  }

  @Test
  void rotatesBySizeAndKeepsAtMostMaxFiles() throws Exception {
    Path path = dir.resolve("traffic.jsonl");
    try (RotatingFile file = new RotatingFile(path, 100, 3)) {
      for (int i = 0; i < 40; i++) {
        file.write(line(i));
      }
    }

    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.sorted().toList();
    }
    assertThat(files)
        .extracting(p -> p.getFileName().toString())
        .containsExactly("traffic.1.jsonl", "traffic.2.jsonl", "traffic.jsonl");
    for (Path p : files) {
      assertThat(Files.size(p)).isLessThanOrEqualTo(100);
    }
    // the newest lines are in the file being written, the ones before them in .1
    assertThat(Files.readAllLines(path)).last().isEqualTo(line(39));
    List<String> previous = Files.readAllLines(dir.resolve("traffic.1.jsonl"));
    assertThat(previous).hasSize(5).last().isEqualTo(line(39 - Files.readAllLines(path).size()));
  }

  @Test
  void aLineLongerThanTheBoundGetsAFileOfItsOwn() throws Exception {
    Path path = dir.resolve("t.jsonl");
    try (RotatingFile file = new RotatingFile(path, 10, 2)) {
      file.write("x".repeat(30));
      file.write("y");
    }
    assertThat(Files.readAllLines(path)).containsExactly("y");
    assertThat(Files.readAllLines(dir.resolve("t.1.jsonl"))).containsExactly("x".repeat(30));
  }

  @Test
  void oneFileKeptMeansTheOldLinesAreDropped() throws Exception {
    Path path = dir.resolve("t.jsonl");
    try (RotatingFile file = new RotatingFile(path, 40, 1)) {
      for (int i = 0; i < 10; i++) {
        file.write(line(i));
      }
    }
    assertThat(Files.readAllLines(path)).containsExactly(line(8), line(9));
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.count()).isEqualTo(1);
    }
  }

  @Test
  void aRecordingLeftByAnEarlierRunIsRotatedAwayAtOpen() throws Exception {
    Path path = dir.resolve("t.jsonl");
    Files.writeString(path, "old\n");
    try (RotatingFile file = new RotatingFile(path, 1000, 3)) {
      file.write("new");
    }
    assertThat(Files.readAllLines(path)).containsExactly("new");
    assertThat(Files.readAllLines(dir.resolve("t.1.jsonl"))).containsExactly("old");
  }
}
