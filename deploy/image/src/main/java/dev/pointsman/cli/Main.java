package dev.pointsman.cli;

import dev.pointsman.bench.routing.BenchCommand;
import dev.pointsman.body.router.BodyRouterCommand;
import dev.pointsman.cli.certs.CertsCommand;
import dev.pointsman.cli.demo.DemoCommand;
import dev.pointsman.fleet.app.FleetCommand;
import dev.pointsman.gateway.app.LocalGatewayCommand;
import dev.pointsman.picker.app.PickerCommand;
import dev.pointsman.sim.server.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pointsman}: one jar, every role a subcommand. */
@Command(
    name = "pointsman",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Pointsman: an inference gateway for LLM serving fleets. Every role is a subcommand;"
          + " `pointsman COMMAND --help` explains one, with an example."
    },
    footerHeading = "%nExample:%n",
    footer = {"  ./pointsman demo", "  ./pointsman picker --help"},
    subcommands = {
      DemoCommand.class,
      PickerCommand.class,
      BodyRouterCommand.class,
      SimulateCommand.class,
      LocalGatewayCommand.class,
      FleetCommand.class,
      BenchCommand.class,
      CertsCommand.class
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with every subcommand, for tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The version from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"pointsman " + (v == null ? "dev" : v)};
    }
  }
}
