package dev.pointsman.picker.replication;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Only the replication package sees JGroups, and the scheduling library does not know it is
 * replicated: it hands facts to a {@code Learning} and takes peers' facts through its own methods.
 */
class ReplicationBoundaryTest {
  private static final JavaClasses PICKER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.pointsman.picker");

  @Test
  void onlyTheReplicationPackageSeesJGroups() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.pointsman.picker.replication")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.jgroups..")
        .check(PICKER);
  }

  @Test
  void schedulingDoesNotDependOnReplication() {
    noClasses()
        .that()
        .resideInAPackage("dev.pointsman.picker.scheduling..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.pointsman.picker.replication..")
        .check(PICKER);
  }
}
