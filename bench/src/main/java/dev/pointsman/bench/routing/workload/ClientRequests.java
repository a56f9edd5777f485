package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.LoraMix;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.sim.engine.Segment;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the gateway receives for a bench request: the OpenAI chat-completions body a client would
 * send (one message per prompt segment, {@code "stream"} as the request says, {@code
 * stream_options.include_usage} on streamed ones), parsed by the picker's own {@link RequestParser}
 * with the picker's limits. Policies read prompts through this, so the token estimate and the
 * prompt prefix are the ones production computes from the text, never the engine's exact token
 * counts. Caches the last request, as each is routed once.
 */
public final class ClientRequests {
  /** The API path the bench's clients call. */
  public static final String PATH = "/v1/chat/completions";

  /** Bytes of rendered segment text kept for reuse. */
  static final long CACHE_BYTES = 16L << 20;

  private static final byte[] MESSAGE_START =
      "{\"role\":\"user\",\"content\":".getBytes(StandardCharsets.UTF_8);

  private final RequestParser parser =
      new RequestParser(
          new ParserLimits(
              ParserLimits.DEFAULT_MAX_BODY_BYTES,
              PickerApp.PREFIX_CHARS,
              ParserLimits.DEFAULT_MAX_DEPTH));

  private final PromptText text;
  private final String baseModel;
  private final Set<String> adapters;
  private final LinkedHashMap<Segment, byte[]> rendered =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Segment, byte[]> eldest) {
          if (cachedBytes <= CACHE_BYTES) {
            return false;
          }
          cachedBytes -= eldest.getValue().length;
          return true;
        }
      };
  private long cachedBytes;
  private long parsedFor = -1;
  private ParsedRequest parsed;

  /**
   * @param baseModel the model every pod serves
   * @param adapters the LoRA adapters clients may name (what the pods' {@code /v1/models} list)
   * @param mix what the prompts are written in
   */
  public ClientRequests(String baseModel, Set<String> adapters, TextMix mix) {
    this.baseModel = baseModel;
    this.adapters = Set.copyOf(adapters);
    this.text = new PromptText(mix);
  }

  /** The clients of a scenario. */
  public static ClientRequests of(Scenario scenario) {
    Set<String> names = new TreeSet<>();
    if (scenario.lora() != null) {
      for (int i = 0; i < scenario.lora().adapters(); i++) {
        names.add(LoraMix.adapterName(i));
      }
    }
    return new ClientRequests(scenario.model(), names, scenario.production().text());
  }

  /** The model every pod serves. */
  public String baseModel() {
    return baseModel;
  }

  /** The adapters clients may name. */
  public Set<String> adapters() {
    return adapters;
  }

  /** The {@code model} the client names: the adapter, or the base model. */
  public String model(BenchRequest r) {
    String adapter = r.adapterOrNull();
    return adapter != null ? adapter : baseModel;
  }

  /** The request body, as JSON bytes. */
  public byte[] body(BenchRequest r) {
    StringBuilder head = new StringBuilder(96).append("{\"model\":");
    string(head, model(r));
    if (r.streamed()) {
      head.append(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
    }
    byte[] start = head.append(",\"messages\":[").toString().getBytes(StandardCharsets.UTF_8);
    byte[][] contents = new byte[r.sim().prompt().size()][];
    int length = start.length + 2;
    for (int i = 0; i < contents.length; i++) {
      contents[i] = jsonString(r.sim().prompt().get(i));
      length += (i == 0 ? 0 : 1) + MESSAGE_START.length + contents[i].length + 1;
    }
    byte[] body = new byte[length];
    int at = put(body, 0, start);
    for (int i = 0; i < contents.length; i++) {
      if (i > 0) {
        body[at++] = ',';
      }
      at = put(body, at, MESSAGE_START);
      at = put(body, at, contents[i]);
      body[at++] = '}';
    }
    body[at++] = ']';
    body[at] = '}';
    return body;
  }

  private static int put(byte[] into, int at, byte[] bytes) {
    System.arraycopy(bytes, 0, into, at, bytes.length);
    return at + bytes.length;
  }

  /** The body as the picker parses it. */
  public ParsedRequest parsed(BenchRequest r) {
    if (parsedFor != r.id() || parsed == null) {
      parsed = parser.parse(PATH, body(r));
      parsedFor = r.id();
    }
    return parsed;
  }

  /** The prompt text the gateway keeps (what prefix-aware policies hash). */
  public String promptPrefix(BenchRequest r) {
    return parsed(r).promptPrefix();
  }

  /** The rendering of prompt content. */
  public PromptText text() {
    return text;
  }

  /**
   * The text of {@code segment} as a JSON string, in UTF-8. Shared content (system prompts,
   * documents, earlier turns) recurs in many requests, so its rendering is kept, least recently
   * used first out beyond {@link #CACHE_BYTES}.
   */
  private byte[] jsonString(Segment segment) {
    byte[] json = rendered.get(segment);
    if (json == null) {
      StringBuilder raw = new StringBuilder(segment.length() * 4);
      text.append(raw, segment);
      StringBuilder sb = new StringBuilder(raw.length() + 16);
      string(sb, raw);
      json = sb.toString().getBytes(StandardCharsets.UTF_8);
      cachedBytes += json.length;
      rendered.put(segment, json);
    }
    return json;
  }

  private static void string(StringBuilder sb, CharSequence s) {
    sb.append('"');
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\') {
        continue;
      }
      sb.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(String.format("\\u%04x", (int) c));
      }
    }
    sb.append(s, run, s.length()).append('"');
  }
}
