package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The launcher script, run for real against a fake JDK that records its arguments: it passes the
 * flag that silences the JDK's sun.misc.Unsafe warnings only to JDKs that accept it (23 and newer),
 * since an older JDK refuses to start with an unknown option.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class LauncherTest {
  private static final String FLAG = "--sun-misc-unsafe-memory-access=allow";

  @TempDir Path tmp;

  @ParameterizedTest(name = "JDK {0}")
  @CsvSource({"21, false", "22, false", "23, true", "25, true"})
  void allowsUnsafeMemoryAccessOnlyWhereTheJdkKnowsTheFlag(int version, boolean passed)
      throws Exception {
    // given: a checkout with a built jar and no sources newer than it, and a fake JDK
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path launcher = root.resolve("pointsman");
    Files.copy(Path.of("..", "..", "pointsman"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
    Path jar =
        Files.createDirectories(root.resolve("deploy/image/target")).resolve("pointsman.jar");
    Files.writeString(jar, "");
    Path args = tmp.resolve("args.txt");
    Path jdk = fakeJdk(version, args);

    // when
    ProcessBuilder p =
        new ProcessBuilder("bash", launcher.toString(), "--version")
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("out.txt").toFile())
            .directory(tmp.toFile());
    p.environment().put("JAVA_HOME", jdk.toString());
    p.environment().remove("POINTSMAN_JAVA_OPTS");
    Process run = p.start();
    assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();

    // then
    assertThat(run.exitValue()).as(Files.readString(tmp.resolve("out.txt"))).isZero();
    List<String> seen = Files.readAllLines(args);
    assertThat(seen).containsSubsequence("-jar", jar.toString(), "--version");
    if (passed) {
      assertThat(seen.subList(0, seen.indexOf("-jar"))).contains(FLAG);
    } else {
      assertThat(seen).doesNotContain(FLAG);
    }
  }

  /** A JDK folder whose java reports {@code version} and writes its arguments to {@code args}. */
  private Path fakeJdk(int version, Path args) throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("jdk-" + version).resolve("bin"));
    String java =
        """
        #!/bin/sh
        if [ "$1" = "-XshowSettings:properties" ]; then
          echo "    java.specification.version = %d" >&2
          exit 0
        fi
        printf '%%s\\n' "$@" > '%s'
        """
            .formatted(version, args);
    for (String tool : List.of("java", "javac")) {
      Path f = Files.writeString(bin.resolve(tool), java);
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin.getParent();
  }
}
