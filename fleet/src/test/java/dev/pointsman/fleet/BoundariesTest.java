package dev.pointsman.fleet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rule is pure and so is the health arithmetic: no gRPC, no clock, no threads of their own; and
 * no fleet class sees Envoy's types.
 */
class BoundariesTest {
  private static final JavaClasses FLEET =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.pointsman.fleet");

  @Test
  void theChoiceDependsOnNothingButTheJdkBasics() {
    classes()
        .that()
        .resideInAPackage("dev.pointsman.fleet.choice..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("dev.pointsman.fleet.choice..", "java.lang..", "java.util..")
        .check(FLEET);
  }

  @Test
  void healthKnowsNoClockAndNoNetwork() {
    noClasses()
        .that()
        .resideInAPackage("dev.pointsman.fleet.health..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.grpc..", "io.netty..", "java.time..", "java.util.concurrent..")
        .check(FLEET);
  }

  @Test
  void onlyTheK8sPackageSeesTheKubernetesClient() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.pointsman.fleet.k8s..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.fabric8..")
        .check(FLEET);
  }

  @Test
  void noFleetClassSeesEnvoysTypes() {
    // the shared extproc module plays the protocol; the fleet supplies only its decision
    noClasses().should().dependOnClassesThat().resideInAPackage("io.envoyproxy..").check(FLEET);
  }
}
