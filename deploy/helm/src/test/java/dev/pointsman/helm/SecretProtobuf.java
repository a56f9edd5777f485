package dev.pointsman.helm;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;

/**
 * Decodes a v1 Secret sent in Kubernetes' protobuf encoding, which Helm's release storage (a
 * client-go typed client) uses for its {@code sh.helm.release.v1.*} Secrets and the CRUD mock
 * cannot read. The envelope is the magic {@code k8s\0} and a {@code runtime.Unknown} (typeMeta 1,
 * raw 2); raw is a {@code v1.Secret} (metadata 1, data 2, type 3, stringData 4, immutable 5) whose
 * {@code ObjectMeta} fields read here are name 1, generateName 2, namespace 3, resourceVersion 6,
 * labels 11 and annotations 12, the field numbers of k8s.io/api's generated.proto. Other fields are
 * skipped: Helm sets none of them.
 */
final class SecretProtobuf {
  static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private SecretProtobuf() {}

  static boolean isEnvelope(byte[] body) {
    return body.length >= MAGIC.length && Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC);
  }

  static Secret decode(byte[] body) {
    if (!isEnvelope(body)) {
      throw new IllegalArgumentException("not a Kubernetes protobuf body (expected magic k8s\\0)");
    }
    try {
      var in = CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length);
      ByteString raw = null;
      String kind = null;
      for (int tag; (tag = in.readTag()) != 0; ) {
        switch (WireFormat.getTagFieldNumber(tag)) {
          case 1 -> kind = typeMetaKind(in.readBytes());
          case 2 -> raw = in.readBytes();
          default -> in.skipField(tag);
        }
      }
      if (!"Secret".equals(kind) || raw == null) {
        throw new IllegalArgumentException("protobuf body of kind " + kind + " (expected Secret)");
      }
      return secret(raw.newCodedInput());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String typeMetaKind(ByteString typeMeta) throws IOException {
    var in = typeMeta.newCodedInput();
    String kind = null;
    for (int tag; (tag = in.readTag()) != 0; ) {
      if (WireFormat.getTagFieldNumber(tag) == 2) {
        kind = in.readStringRequireUtf8();
      } else {
        in.skipField(tag);
      }
    }
    return kind;
  }

  private static Secret secret(CodedInputStream in) throws IOException {
    var secret = new Secret();
    secret.setApiVersion("v1");
    secret.setKind("Secret");
    var data = new LinkedHashMap<String, String>();
    var stringData = new LinkedHashMap<String, String>();
    for (int tag; (tag = in.readTag()) != 0; ) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> secret.setMetadata(metadata(in.readBytes().newCodedInput()));
        case 2 ->
            entry(in.readBytes(), (k, v) -> data.put(k, Base64.getEncoder().encodeToString(v)));
        case 3 -> secret.setType(in.readStringRequireUtf8());
        case 4 -> entry(in.readBytes(), (k, v) -> stringData.put(k, utf8(v)));
        case 5 -> secret.setImmutable(in.readBool());
        default -> in.skipField(tag);
      }
    }
    secret.setData(data.isEmpty() ? null : data);
    secret.setStringData(stringData.isEmpty() ? null : stringData);
    return secret;
  }

  private static ObjectMeta metadata(CodedInputStream in) throws IOException {
    var meta = new ObjectMeta();
    var labels = new LinkedHashMap<String, String>();
    var annotations = new LinkedHashMap<String, String>();
    for (int tag; (tag = in.readTag()) != 0; ) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> meta.setName(in.readStringRequireUtf8());
        case 2 -> meta.setGenerateName(in.readStringRequireUtf8());
        case 3 -> meta.setNamespace(in.readStringRequireUtf8());
        case 6 -> meta.setResourceVersion(in.readStringRequireUtf8());
        case 11 -> entry(in.readBytes(), (k, v) -> labels.put(k, utf8(v)));
        case 12 -> entry(in.readBytes(), (k, v) -> annotations.put(k, utf8(v)));
        default -> in.skipField(tag);
      }
    }
    meta.setLabels(labels.isEmpty() ? null : labels);
    meta.setAnnotations(annotations.isEmpty() ? null : annotations);
    if (meta.getResourceVersion() != null && meta.getResourceVersion().isEmpty()) {
      meta.setResourceVersion(null);
    }
    return meta;
  }

  /** A protobuf map entry: key 1 (string), value 2 (bytes or string). */
  private static void entry(ByteString bytes, java.util.function.BiConsumer<String, byte[]> sink)
      throws IOException {
    var in = bytes.newCodedInput();
    String key = "";
    byte[] value = new byte[0];
    for (int tag; (tag = in.readTag()) != 0; ) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> key = in.readStringRequireUtf8();
        case 2 -> value = in.readByteArray();
        default -> in.skipField(tag);
      }
    }
    sink.accept(key, value);
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
