package dev.pointsman.picker.k8s;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import dev.pointsman.picker.k8s.api.EndpointPickerRef;
import dev.pointsman.picker.k8s.api.FilterSpec;
import dev.pointsman.picker.k8s.api.InferencePoolSpec;
import dev.pointsman.picker.k8s.api.InferencePoolStatus;
import dev.pointsman.picker.k8s.api.ModelRouteSpec;
import dev.pointsman.picker.k8s.api.ParentReference;
import dev.pointsman.picker.k8s.api.ParentStatus;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.PickerSpec;
import dev.pointsman.picker.k8s.api.PoolRef;
import dev.pointsman.picker.k8s.api.PoolSelector;
import dev.pointsman.picker.k8s.api.Port;
import dev.pointsman.picker.k8s.api.SaturationSpec;
import dev.pointsman.picker.k8s.api.ScorerSpec;
import dev.pointsman.picker.k8s.api.TargetRef;
import dev.pointsman.picker.k8s.api.TenantBudgetSpec;
import dev.pointsman.picker.k8s.api.TenantBudgetStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tolerant reading of Kubernetes objects: a field the picker's types do not know (one added by a
 * newer release of the upstream InferencePool CRD, say {@code spec.appProtocol} or {@code
 * status.parents[].controllerName}, or by a newer Pointsman CRD) is skipped instead of failing the
 * informer's list and watch, counted per kind, and logged once per kind and field path at WARN.
 *
 * <p>Thread-safe: informer threads read concurrently. The once-logged set is bounded ({@value
 * #MAX_LOGGED} kind/field pairs); counting goes on beyond it. A field is counted each time an
 * object carrying it is read (every list and every watch event), so the counter tells that a
 * cluster runs a newer CRD than this picker knows, not how many objects do.
 */
public final class UnknownFields {
  private static final Logger LOG = LoggerFactory.getLogger(UnknownFields.class);
  static final int MAX_LOGGED = 256;

  private final Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  /** The builder, reading with this instance's tolerant serialization. */
  public KubernetesClientBuilder configure(KubernetesClientBuilder builder) {
    return builder.withKubernetesSerialization(serialization());
  }

  /** A fabric8 serialization that skips and records unknown fields instead of failing. */
  public KubernetesSerialization serialization() {
    ObjectMapper mapper = new ObjectMapper().addHandler(new Handler());
    return new KubernetesSerialization(mapper, true);
  }

  /** Unknown fields read so far in objects of {@code kind} ({@code InferencePool}, ...). */
  public long count(String kind) {
    LongAdder n = byKind.get(kind);
    return n == null ? 0 : n.sum();
  }

  /** Counts by kind, sorted by kind. */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    byKind.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** The kind/field pairs logged so far, as {@code "InferencePool spec.appProtocol"}. */
  Set<String> fields() {
    return Set.copyOf(logged);
  }

  void record(String kind, String path) {
    byKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
    String key = kind + " " + path;
    if (logged.size() < MAX_LOGGED && logged.add(key)) {
      LOG.warn(
          "{} field '{}' is unknown to this picker; ignored (the cluster's CRD is newer)",
          kind,
          path);
    }
  }

  /** Skips the unknown value and records it. */
  private final class Handler extends DeserializationProblemHandler {
    @Override
    public boolean handleUnknownProperty(
        DeserializationContext ctxt,
        JsonParser p,
        JsonDeserializer<?> deserializer,
        Object beanOrClass,
        String propertyName)
        throws IOException {
      // the context naming the field: the parser may already be inside the value's own context
      JsonStreamContext leaf = p.getParsingContext();
      JsonStreamContext named = leaf;
      while (named != null && !(named.inObject() && propertyName.equals(named.getCurrentName()))) {
        named = named.getParent();
      }
      // a value's own context can repeat its field's name (Jackson's buffered creator parsing)
      while (named != null
          && named.getParent() != null
          && propertyName.equals(named.getParent().getCurrentName())) {
        named = named.getParent();
      }
      leaf = named == null ? leaf : named;
      Location at = locate(leaf, beanOrClass);
      record(at.kind(), at.path());
      p.skipChildren();
      return true;
    }
  }

  private static final Set<String> ENVELOPE = Set.of("items", "[]", "object");

  private record Location(String kind, String path) {}

  /** The kind whose objects each of the picker's own types appears in, when only in one. */
  private static final Map<Class<?>, String> KINDS = kinds();

  private static Map<Class<?>, String> kinds() {
    Map<Class<?>, String> kinds = new java.util.HashMap<>();
    for (Class<?> c :
        List.of(
            InferencePoolSpec.class,
            InferencePoolStatus.class,
            ParentStatus.class,
            ParentReference.class,
            PoolSelector.class,
            Port.class,
            EndpointPickerRef.class)) {
      kinds.put(c, "InferencePool");
    }
    kinds.put(ModelRouteSpec.class, "ModelRoute");
    kinds.put(PoolRef.class, "ModelRoute");
    kinds.put(TenantBudgetSpec.class, "TenantBudget");
    kinds.put(TenantBudgetStatus.class, "TenantBudget");
    for (Class<?> c :
        List.of(
            PickerPolicySpec.class,
            TargetRef.class,
            FilterSpec.class,
            ScorerSpec.class,
            PickerSpec.class,
            SaturationSpec.class)) {
      kinds.put(c, "PickerPolicy");
    }
    return Map.copyOf(kinds);
  }

  /**
   * The kind of the enclosing Kubernetes object (the nearest parsing context whose current value is
   * a {@link HasMetadata}) and the field's path inside it, array indexes dropped ({@code
   * status.parents[].controllerName}). Without an enclosing object: the Java type's simple name.
   */
  private static Location locate(JsonStreamContext leaf, Object beanOrClass) {
    Deque<String> parts = new ArrayDeque<>();
    String kind = null;
    for (JsonStreamContext c = leaf; c != null; c = c.getParent()) {
      if (c.inArray()) {
        parts.push("[]");
      } else if (c.inObject() && c.getCurrentName() != null) {
        parts.push(c.getCurrentName());
      }
      if (c.getCurrentValue() instanceof HasMetadata object) {
        kind = object.getClass().getSimpleName();
        break;
      }
    }
    if (kind == null) {
      Class<?> type = beanOrClass instanceof Class<?> k ? k : beanOrClass.getClass();
      kind = KINDS.getOrDefault(type, type.getSimpleName());
      while (!parts.isEmpty() && ENVELOPE.contains(parts.peekFirst())) {
        parts.removeFirst(); // items[] of a list, object of a watch event
      }
    }
    StringBuilder path = new StringBuilder();
    for (String part : parts) {
      if (!part.equals("[]") && !path.isEmpty()) {
        path.append('.');
      }
      path.append(part);
    }
    return new Location(kind, path.toString());
  }
}
