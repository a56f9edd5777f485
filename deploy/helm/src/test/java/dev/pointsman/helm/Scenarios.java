package dev.pointsman.helm;

import java.util.List;

/** Named values sets the tests render: the defaults and each switch the chart has. */
final class Scenarios {
  private Scenarios() {}

  record Scenario(String name, String values) {
    Rendered render() {
      return Chart.render(values);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static final Scenario DEFAULTS = new Scenario("defaults", "");

  static final Scenario CERT_MANAGER =
      new Scenario(
          "cert-manager for both certificates",
          """
          picker:
            tls:
              mode: certManager
          envoy:
            tls:
              mode: certManager
              dnsNames: [llm.internal.example.com]
              certManager:
                issuerRef: {name: corp-ca, kind: ClusterIssuer, group: cert-manager.io}
          """);

  static final Scenario EVERYTHING_ON =
      new Scenario(
          "HPA, ServiceMonitor, IRSA, custom image, user Secrets, canary",
          """
          image:
            repository: 123456789012.dkr.ecr.us-east-1.amazonaws.com/pointsman
            tag: 1.2.3-rc.1
          serviceAccount:
            annotations:
              eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/pointsman-picker
          picker:
            autoscaling: {enabled: true, minReplicas: 3, maxReplicas: 9, targetCPUUtilizationPercentage: 50}
            tls: {mode: secret, secretName: my-picker-tls}
          envoy:
            ipFamily: IPv6
            autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 20, targetCPUUtilizationPercentage: 70}
            tls: {mode: secret, secretName: my-gateway-tls, dnsNames: [llm.corp.example]}
            service:
              annotations:
                service.beta.kubernetes.io/aws-load-balancer-subnets: subnet-a,subnet-b
              loadBalancerSourceRanges: [10.20.0.0/16]
          metrics:
            serviceMonitor: {enabled: true, interval: 30s, labels: {release: kube-prometheus-stack}}
            prometheusRule:
              enabled: true
              labels: {release: kube-prometheus-stack}
              ruleLabels: {team: ml-platform}
              disabled: [PointsmanEndpointSignalMissing]
              ttftP99Seconds: 1.5
          canary: {enabled: true, percent: 5}
          """);

  static final Scenario BOUND_POOL =
      new Scenario(
          "bound to one InferencePool, behind another gateway",
          """
          picker:
            pool: llama-70b
            replicas: 3
          envoy:
            enabled: false
          networkPolicy:
            extraPickerPeers:
              - namespaceSelector:
                  matchLabels: {kubernetes.io/metadata.name: istio-system}
          """);

  static final Scenario LOCAL_CONFIG =
      new Scenario(
          "local config mode, FailOpen",
          """
          picker:
            mode: config
            config:
              models:
                - name: meta-llama/Llama-3.1-8B-Instruct
                  aliases: [llama]
                  pools: [{pool: mixed}]
              defaultModel: llama
              pools:
                - name: mixed
                  endpoints:
                    - {address: "10.0.0.11:8000"}
          envoy:
            ipFamily: IPv4
            failureModeAllow: true
            defaultService: {host: vllm.models.svc.cluster.local, port: 8080}
          """);

  static final Scenario GRPC_PROBES =
      new Scenario(
          "native gRPC probes on a plaintext health port",
          """
          picker:
            probes: {type: grpc, grpcPort: 9003}
          """);

  static final Scenario FLEET =
      new Scenario(
          "fleet tier, its Envoy and the picker's cluster summary",
          """
          picker:
            summary: {enabled: true, cluster: us-east-spot, secretName: picker-summary-tls, \
          serviceType: LoadBalancer}
          metrics:
            serviceMonitor: {enabled: true}
            prometheusRule: {enabled: true}
          fleet:
            enabled: true
            tlsSecretName: fleet-tls
            summariesSecretName: fleet-summaries
            envoy: {enabled: true, tlsSecretName: fleet-gateway-tls, \
          clustersCaSecretName: cluster-gateways-ca}
            config:
              regions: [us-east, eu-west]
              sloTtftMillis: 1500
              clusters:
                - {name: us-east-spot, gateway: "10.1.0.10:443", \
          summary: "summary.us-east.example:9004", tier: spot, pricePerGpuHour: 1.2, \
          rttMillis: {us-east: 3, eu-west: 85}}
          """);

  static List<Scenario> all() {
    return List.of(
        DEFAULTS, CERT_MANAGER, EVERYTHING_ON, BOUND_POOL, LOCAL_CONFIG, GRPC_PROBES, FLEET);
  }
}
