package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/** Every help text a newcomer reads: whole sentences, an example each, the config keys linked. */
class HelpTest {

  static List<String> subcommands() {
    return List.copyOf(Main.commandLine().getSubcommands().keySet());
  }

  @Test
  void theCommandListGivesEverySummaryWhole() {
    Map<String, String> summaries = summaries(Main.commandLine().getUsageMessage(Ansi.OFF));

    assertThat(summaries.keySet()).containsExactlyInAnyOrderElementsOf(subcommands());
    assertThat(summaries)
        .allSatisfy((name, summary) -> assertThat(summary).as(name).matches("[A-Z].*[.]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subcommands")
  void everySubcommandHasAnExampleAndWholeSentences(String name) {
    CommandLine sub = Main.commandLine().getSubcommands().get(name);
    String usage = sub.getUsageMessage(Ansi.OFF);
    CommandLine.Model.UsageMessageSpec spec = sub.getCommandSpec().usageMessage();

    assertThat(usage).contains("Example:").containsPattern("(?m)^  \\./pointsman " + name + "\\b");
    for (String paragraph : String.join(" ", spec.description()).split(" {2,}|\\n")) {
      assertThat(paragraph.strip()).as("%s description", name).matches("|.*[.:]");
    }
    for (CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
      String text = String.join(" ", o.description());
      assertThat(text).as("%s %s", name, o.longestName()).matches("[A-Z].*[.)]");
    }
    if (sub.getCommandSpec().findOption("--config") != null) {
      assertThat(usage).as("%s links its config keys", name).containsPattern("docs/[a-z-]+\\.md");
    }
  }

  /** The "Commands:" section: name to its summary, wrapped lines joined. */
  private static Map<String, String> summaries(String usage) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    List<String> lines = new ArrayList<>(List.of(usage.split("\\R")));
    int start = lines.indexOf("Commands:");
    String current = null;
    Pattern entry = Pattern.compile("^  (\\S+)\\s+(.*)$");
    for (String line : lines.subList(start + 1, lines.size())) {
      var m = entry.matcher(line);
      if (m.matches()) {
        current = m.group(1);
        out.put(current, m.group(2).strip());
      } else if (line.startsWith("    ") && current != null) {
        out.merge(current, line.strip(), (a, b) -> a + " " + b);
      } else {
        break;
      }
    }
    return out;
  }
}
