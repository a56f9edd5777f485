package dev.pointsman.picker.kvevents;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Only the kvevents package sees ZeroMQ, msgpack and DJL; it sees no Micrometer. */
class KvEventsIsolationTest {
  private static final JavaClasses PICKER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.pointsman.picker");

  @Test
  void zeroMqMsgpackAndDjlStayInKvevents() {
    assertThat(PICKER.size()).isGreaterThan(50);
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.pointsman.picker.kvevents..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.zeromq..", "zmq..", "org.msgpack..", "ai.djl..")
        .check(PICKER);
  }

  @Test
  void kveventsKeepsMicrometerOut() {
    noClasses()
        .that()
        .resideInAPackage("dev.pointsman.picker.kvevents..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.micrometer..")
        .check(PICKER);
  }
}
