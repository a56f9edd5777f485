package dev.pointsman.picker.testing;

import dev.pointsman.picker.app.PickerApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** GETs on a running picker's admin port ({@code /metrics}, {@code /debug/...}). */
public final class PickerAdmin {
  private PickerAdmin() {}

  /** The body of {@code path}; fails unless the picker answers 200. */
  public static String get(PickerApp app, String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new AssertionError(path + " answered " + r.statusCode() + " (expected 200)");
    }
    return r.body();
  }
}
