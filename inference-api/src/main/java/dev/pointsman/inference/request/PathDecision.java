package dev.pointsman.inference.request;

import dev.pointsman.inference.error.OpenAiError;
import java.util.Objects;

/** What a gateway does with a request, from its method and path ({@link InferencePaths}). */
public sealed interface PathDecision {

  /** A body-carrying inference call ({@code POST}) on an allow-listed path: route it. */
  record Routed(String path) implements PathDecision {
    public Routed {
      Objects.requireNonNull(path, "path");
    }
  }

  /** {@code GET}/{@code HEAD /v1/models}: answered by the gateway itself, never routed. */
  record ModelList(boolean head) implements PathDecision {}

  /** {@code GET}/{@code HEAD /v1/models/{id}}: answered by the gateway itself, never routed. */
  record ModelRetrieve(String id, boolean head) implements PathDecision {
    public ModelRetrieve {
      Objects.requireNonNull(id, "id");
    }
  }

  /**
   * Not the inference API, or a path not in normal form: refused, never forwarded.
   *
   * @param error the OpenAI error answered (404 {@code unknown_path}, or 400 {@code invalid_path}
   *     where Envoy itself refuses the path)
   * @param reason the metrics label: {@code unknown_path} or {@code invalid_path}
   */
  record Refused(OpenAiError error, String reason) implements PathDecision {
    public Refused {
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
