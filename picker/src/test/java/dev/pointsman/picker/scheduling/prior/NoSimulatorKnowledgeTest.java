package dev.pointsman.picker.scheduling.prior;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The picker does not know the simulator: no class of it depends on the simulator's, its build does
 * not depend on the simulator module, no source names the simulator's profiles, and the speed
 * prior's numbers live in one place, the spec table and the roofline's stated assumptions.
 */
class NoSimulatorKnowledgeTest {
  private static final Path MAIN = Path.of("src/main/java/dev/pointsman/picker");

  @Test
  void noPickerClassDependsOnTheSimulator() {
    JavaClasses picker =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.pointsman.picker");
    assertThat(picker.size()).isGreaterThan(50);
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.pointsman.sim..")
        .check(picker);
  }

  @Test
  void theBuildDoesNotDependOnTheSimulatorModule() throws IOException {
    assertThat(Files.readString(Path.of("pom.xml"))).doesNotContain("pointsman-simulator");
  }

  @Test
  void noSourceNamesTheSimulatorsProfiles() throws IOException {
    for (Path f : sources(MAIN)) {
      String text = Files.readString(f);
      assertThat(text)
          .as(f.toString())
          .doesNotContain("gpu-profiles")
          .doesNotContain("dev.pointsman.sim");
    }
  }

  @Test
  void speedNumbersLiveOnlyInTheSpecTableAndTheRoofline() throws IOException {
    // a decimal literal other than 0 and 1 in the profile or the scorer's step arithmetic would be
    // a
    // speed constant from somewhere else
    for (Path f :
        List.of(
            MAIN.resolve("scheduling/SpeedProfile.java"),
            MAIN.resolve("scheduling/prior/SpeedPriors.java"))) {
      Matcher m =
          Pattern.compile("(?<![\\w.])\\d+(?:_\\d+)*(?:\\.\\d+)?(?:e-?\\d+)?").matcher(code(f));
      while (m.find()) {
        assertThat(m.group()).as("%s literal", f.getFileName()).isIn("0", "1", "1.0", "2");
      }
    }
  }

  /** The source without comments, string literals and the cache's size (not a speed). */
  private static String code(Path f) throws IOException {
    return Files.readString(f)
        .replaceAll("static final int CACHED = \\d+;", "")
        .replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "")
        .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
  }

  private static List<Path> sources(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }
}
