package dev.pointsman.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * fabric8's CRUD mock API server over HTTPS, with what Helm (helm-java: Helm 3 and client-go in a
 * native library) needs and the CRUD mock lacks:
 *
 * <ul>
 *   <li>{@code /version}, and legacy discovery ({@code /api}, {@code /apis}, one resource list per
 *       group version) for the kinds the chart renders; client-go asks for aggregated discovery
 *       first and accepts the legacy documents;
 *   <li>Secrets sent in Kubernetes' protobuf encoding (Helm's release storage), decoded by {@link
 *       SecretProtobuf}; replies typed {@code application/json}, which client-go otherwise decodes
 *       as the protobuf it sent;
 *   <li>lists typed as their kind ({@code SecretList}, not {@code List}): Helm's typed client finds
 *       no release in a {@code List};
 *   <li>strategic and JSON merge patches applied by {@link StrategicMergePatch} (the mock refuses
 *       the first with 415 and appends to lists in the second), then stored as an update;
 *   <li>an error status instead of silence when the mock throws: a request it leaves unanswered
 *       makes Helm wait forever.
 * </ul>
 *
 * Every request is recorded with its status, so a test can say what Helm did.
 */
final class HelmApiServer implements AutoCloseable {
  /** What the API server reports as its version (within the chart's kubeVersion, >= 1.30). */
  static final String GIT_VERSION = "v" + Chart.KUBE_VERSION;

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final String STRATEGIC = "application/strategic-merge-patch+json";
  private static final String MERGE = "application/merge-patch+json";
  private static final List<Class<? extends HasMetadata>> KINDS =
      List.of(
          Namespace.class,
          Pod.class,
          Secret.class,
          ConfigMap.class,
          Service.class,
          ServiceAccount.class,
          Deployment.class,
          HorizontalPodAutoscaler.class,
          Job.class,
          NetworkPolicy.class,
          PodDisruptionBudget.class,
          Role.class,
          RoleBinding.class,
          CustomResourceDefinition.class);

  /** One request and the status answered: {@code PATCH /api/v1/namespaces/x/secrets/y 200}. */
  record Call(String method, String path, int status) {
    /** The path without its query. */
    String resource() {
      int q = path.indexOf('?');
      return q < 0 ? path : path.substring(0, q);
    }

    boolean writes() {
      return !method.equals("GET");
    }

    @Override
    public String toString() {
      return method + " " + path + " " + status;
    }
  }

  private final KubernetesMockServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Path kubeConfig;

  HelmApiServer() {
    var crud = new KubernetesCrudDispatcher();
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), new HelmDispatcher(crud), true);
    server.init();
    kubeConfig = writeKubeConfig("https://localhost:" + server.getPort());
  }

  /** A kubeconfig for this server (Helm's --kubeconfig; fabric8's {@code kubeconfig}). */
  Path kubeConfig() {
    return kubeConfig;
  }

  NamespacedKubernetesClient client() {
    return server.createClient();
  }

  /**
   * The resourceVersion of every object in {@code namespace} of the kinds this server knows, by
   * {@code Kind/name}.
   */
  Map<String, String> resourceVersions(String namespace) {
    var versions = new java.util.TreeMap<String, String>();
    try (var client = client()) {
      for (var kind : KINDS) {
        if (Namespaced.class.isAssignableFrom(kind)) {
          for (HasMetadata o : client.resources(kind).inNamespace(namespace).list().getItems()) {
            versions.put(
                HasMetadata.getKind(kind) + "/" + o.getMetadata().getName(),
                o.getMetadata().getResourceVersion());
          }
        }
      }
    }
    return versions;
  }

  /** Every request so far, in order. */
  List<Call> calls() {
    return List.copyOf(calls);
  }

  /** Forgets the recorded requests (not the objects). */
  void clearCalls() {
    calls.clear();
  }

  @Override
  public void close() {
    server.destroy();
    try {
      Files.deleteIfExists(kubeConfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path writeKubeConfig(String url) {
    String yaml =
        """
        apiVersion: v1
        kind: Config
        clusters:
          - name: mock
            cluster: {server: "%s", insecure-skip-tls-verify: true}
        users:
          - name: mock
            user: {token: mock-token}
        contexts:
          - name: mock
            context: {cluster: mock, user: mock}
        current-context: mock
        """
            .formatted(url);
    try {
      Path file = Files.createTempFile("pointsman-kubeconfig-", ".yaml");
      return Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Discovery and strategic merge patches here; everything else to the CRUD dispatcher. */
  private final class HelmDispatcher extends Dispatcher {
    private final KubernetesCrudDispatcher crud;
    private final Map<String, String> discovery = discovery();

    HelmDispatcher(KubernetesCrudDispatcher crud) {
      this.crud = crud;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      MockResponse response = answer(request);
      calls.add(new Call(request.getMethod(), request.getPath(), response.code()));
      return response;
    }

    private MockResponse answer(RecordedRequest request) {
      String path = request.getPath();
      int query = path.indexOf('?');
      String body =
          request.getMethod().equals("GET")
              ? discovery.get(query < 0 ? path : path.substring(0, query))
              : null;
      if (body != null) {
        return new MockResponse()
            .setResponseCode(200)
            .setHeader("Content-Type", "application/json")
            .setBody(body);
      }
      try {
        MockResponse response =
            isMergePatch(request) ? mergePatch(request) : crud.dispatch(translated(request));
        // Without a type, client-go decodes a reply as what it sent (protobuf for Secrets).
        if (response.header("Content-Type") == null) {
          response.setHeader("Content-Type", "application/json");
        }
        return typedList(path, response);
      } catch (RuntimeException e) {
        // Never leave a request unanswered: client-go would wait for it forever.
        return new MockResponse()
            .setResponseCode(500)
            .setBody(request.getMethod() + " " + path + ": " + e);
      }
    }

    /** A strategic or JSON merge patch, applied here and stored by the CRUD mock as an update. */
    private MockResponse mergePatch(RecordedRequest request) {
      String path = request.getPath();
      int query = path.indexOf('?');
      MockResponse current = crud.handleGet(query < 0 ? path : path.substring(0, query));
      if (current.code() != 200) {
        return current;
      }
      JsonNode live =
          JSON.unmarshal(
              new String(current.getBody().getBytes(), StandardCharsets.UTF_8), JsonNode.class);
      JsonNode patch = JSON.unmarshal(request.getUtf8Body(), JsonNode.class);
      JsonNode patched = StrategicMergePatch.apply(live, patch);
      if (patched.equals(live)) {
        return current; // as the API server: a write that changes nothing stores nothing
      }
      RecordedRequest put = withBody(request, "application/json", JSON.asJson(patched));
      return crud.handleUpdate(
          new RecordedRequest(
              put.getHttpVersion(), HttpMethod.PUT, path, put.getHeaders(), put.getBody()));
    }

    @Override
    public void shutdown() {
      crud.shutdown();
    }
  }

  /**
   * The CRUD mock answers every list as {@code kind: List}; client-go's typed clients (Helm's
   * release storage) decode a list only as its own kind ({@code SecretList}), and find no items
   * otherwise.
   */
  private static MockResponse typedList(String path, MockResponse response) {
    if (response.code() != 200 || response.getBody() == null) {
      return response;
    }
    String body = new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    if (!body.contains("\"kind\":\"List\"")) {
      return response;
    }
    int query = path.indexOf('?');
    String resource = (query < 0 ? path : path.substring(0, query));
    String plural = resource.substring(resource.lastIndexOf('/') + 1);
    return KINDS.stream()
        .filter(k -> HasMetadata.getPlural(k).equals(plural))
        .findFirst()
        .map(
            k -> {
              JsonNode list = JSON.unmarshal(body, JsonNode.class);
              ((ObjectNode) list).put("kind", HasMetadata.getKind(k) + "List");
              return response.setBody(JSON.asJson(list));
            })
        .orElse(response);
  }

  /** What the CRUD mock can read: JSON bodies, and merge patches for strategic ones. */
  private static RecordedRequest translated(RecordedRequest request) {
    String type = request.getHeader("Content-Type");
    if (type == null) {
      return request;
    }
    if (type.startsWith(SecretProtobuf.CONTENT_TYPE)) {
      return withBody(
          request,
          "application/json",
          JSON.asJson(SecretProtobuf.decode(request.getBody().getBytes())));
    }
    return request;
  }

  private static boolean isMergePatch(RecordedRequest request) {
    String type = request.getHeader("Content-Type");
    return request.getMethod().equals("PATCH")
        && type != null
        && (type.startsWith(STRATEGIC) || type.startsWith(MERGE));
  }

  private static RecordedRequest withBody(RecordedRequest request, String type, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    var headers =
        request
            .getHeaders()
            .newBuilder()
            .set("Content-Type", type)
            .set("Content-Length", Integer.toString(body.length))
            .build();
    return new RecordedRequest(
        request.getHttpVersion(), request.method(), request.getPath(), headers, new Buffer(body));
  }

  /** Path → JSON body of every discovery document Helm reads. */
  private static Map<String, String> discovery() {
    Map<String, List<Class<? extends HasMetadata>>> byGroupVersion =
        KINDS.stream()
            .collect(
                Collectors.groupingBy(
                    HasMetadata::getApiVersion, LinkedHashMap::new, Collectors.toList()));
    var docs = new LinkedHashMap<String, String>();
    docs.put(
        "/version",
        JSON.asJson(
            Map.of(
                "major",
                "1",
                "minor",
                Chart.KUBE_VERSION.split("\\.")[1],
                "gitVersion",
                GIT_VERSION,
                "platform",
                "linux/amd64")));
    docs.put(
        "/api",
        JSON.asJson(
            new APIVersionsBuilder()
                .withVersions("v1")
                .addNewServerAddressByClientCIDR("0.0.0.0/0", "localhost")
                .build()));
    var groups = new APIGroupListBuilder();
    byGroupVersion.forEach(
        (groupVersion, kinds) -> {
          int slash = groupVersion.indexOf('/');
          String path = slash < 0 ? "/api/" + groupVersion : "/apis/" + groupVersion;
          docs.put(path, JSON.asJson(resources(groupVersion, kinds)));
          if (slash > 0) {
            var version =
                new GroupVersionForDiscovery(groupVersion, groupVersion.substring(slash + 1));
            groups.addToGroups(
                new APIGroupBuilder()
                    .withName(groupVersion.substring(0, slash))
                    .withVersions(version)
                    .withPreferredVersion(version)
                    .build());
          }
        });
    docs.put("/apis", JSON.asJson(groups.build()));
    return Map.copyOf(docs);
  }

  private static Object resources(String groupVersion, List<Class<? extends HasMetadata>> kinds) {
    var list = new APIResourceListBuilder().withGroupVersion(groupVersion);
    for (var kind : kinds) {
      list.addToResources(
          new APIResourceBuilder()
              .withName(HasMetadata.getPlural(kind))
              .withSingularName(HasMetadata.getSingular(kind))
              .withKind(HasMetadata.getKind(kind))
              .withNamespaced(Namespaced.class.isAssignableFrom(kind))
              .withVerbs(
                  "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")
              .build());
    }
    return list.build();
  }
}
