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

  /** Characters of rendered segment text kept for reuse (about 16 MB). */
  static final long CACHE_CHARS = 8L << 20;

  private final RequestParser parser =
      new RequestParser(
          new ParserLimits(
              ParserLimits.DEFAULT_MAX_BODY_BYTES,
              PickerApp.PREFIX_CHARS,
              ParserLimits.DEFAULT_MAX_DEPTH));

  private final PromptText text;
  private final String baseModel;
  private final Set<String> adapters;
  private final LinkedHashMap<Segment, String> rendered =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Segment, String> eldest) {
          if (cachedChars <= CACHE_CHARS) {
            return false;
          }
          cachedChars -= eldest.getValue().length();
          return true;
        }
      };
  private long cachedChars;
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
    StringBuilder sb = new StringBuilder(64 + r.sim().promptTokens() * 5);
    sb.append("{\"model\":");
    string(sb, model(r));
    if (r.streamed()) {
      sb.append(",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
    }
    sb.append(",\"messages\":[");
    boolean first = true;
    for (Segment s : r.sim().prompt()) {
      sb.append(first ? "" : ",").append("{\"role\":\"user\",\"content\":");
      sb.append(jsonString(s));
      sb.append('}');
      first = false;
    }
    sb.append("]}");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
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
   * The text of {@code segment} as a JSON string. Shared content (system prompts, documents,
   * earlier turns) recurs in many requests, so its rendering is kept, least recently used first out
   * beyond {@link #CACHE_CHARS}.
   */
  private String jsonString(Segment segment) {
    String json = rendered.get(segment);
    if (json == null) {
      StringBuilder raw = new StringBuilder(segment.length() * 4);
      text.append(raw, segment);
      StringBuilder sb = new StringBuilder(raw.length() + 16);
      string(sb, raw);
      json = sb.toString();
      cachedChars += json.length();
      rendered.put(segment, json);
    }
    return json;
  }

  private static void string(StringBuilder sb, CharSequence s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
