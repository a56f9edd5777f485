package dev.pointsman.bench;

import dev.pointsman.bench.extproc.ExtProcLoad;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The decision's prefix hashing of a parsed prompt, as the picker hashes it: the prompt the
 * picker's parser keeps (its limits: up to {@link PickerApp#PREFIX_CHARS} characters, read in
 * place) of the data-path harness's body ({@code ExtProcLoad.body}, plain ASCII, held a byte a
 * character), in the default 64-character blocks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PrefixHashBenchmark {
  @Param({"4096", "262144"})
  public int bodyBytes;

  private CharSequence prompt;

  @Setup
  public void setUp() {
    RequestParser parser =
        new RequestParser(
            new ParserLimits(ParserLimits.DEFAULT_MAX_BODY_BYTES, PickerApp.PREFIX_CHARS, 64));
    prompt = parser.parse("/v1/chat/completions", ExtProcLoad.body(bodyBytes)).prompt();
  }

  @Benchmark
  public long[] hash() {
    return PrefixHasher.DEFAULT.hash("meta-llama/Llama-3.1-8B-Instruct", prompt);
  }
}
