package dev.pointsman.testing;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import javax.management.ObjectName;

/**
 * Live instances of named classes in this JVM, from its class histogram (the {@code
 * GC.class_histogram} diagnostic command, which runs a full collection first): anything still
 * reachable counts, whatever holds it. For tests that what a request or an endpoint made is freed.
 */
public final class LiveObjects {
  private LiveObjects() {}

  /** Each class's live instances (0 for a class with none), after a full collection. */
  public static Map<String, Long> count(Collection<String> classNames) {
    String histogram;
    try {
      histogram =
          (String)
              ManagementFactory.getPlatformMBeanServer()
                  .invoke(
                      new ObjectName("com.sun.management:type=DiagnosticCommand"),
                      "gcClassHistogram",
                      new Object[] {new String[0]},
                      new String[] {String[].class.getName()});
    } catch (Exception e) {
      throw new AssertionError("the JVM's class histogram is not available", e);
    }
    Map<String, Long> counts = new TreeMap<>();
    classNames.forEach(c -> counts.put(c, 0L));
    for (String line : histogram.split("\n")) {
      String[] f = line.trim().split("\\s+"); // rank: instances bytes class [(module)]
      if (f.length >= 4 && counts.containsKey(f[3])) {
        counts.put(f[3], Long.parseLong(f[1]));
      }
    }
    return counts;
  }
}
