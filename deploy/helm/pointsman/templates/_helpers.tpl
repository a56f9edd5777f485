{{/* Names. */}}
{{- define "pointsman.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "pointsman.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "pointsman.picker.fullname" -}}
{{- printf "%s-picker" (include "pointsman.fullname" .) }}
{{- end }}

{{- define "pointsman.picker.headless" -}}
{{- printf "%s-picker-headless" (include "pointsman.fullname" .) }}
{{- end }}

{{- define "pointsman.envoy.fullname" -}}
{{- printf "%s-envoy" (include "pointsman.fullname" .) }}
{{- end }}

{{- define "pointsman.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "pointsman.picker.fullname" .) .Values.serviceAccount.name }}
{{- else if .Values.serviceAccount.name }}
{{- .Values.serviceAccount.name }}
{{- else if eq .Values.picker.mode "kubernetes" }}
{{- fail "serviceAccount.create=false needs serviceAccount.name (an existing ServiceAccount for the picker): the chart will not bind the picker's Role to, nor run the picker as, the namespace's default account" }}
{{- else }}
{{- /* config mode: no API access, no token mounted. */}}
{{- "default" }}
{{- end }}
{{- end }}

{{/* The name Envoy checks on the picker's certificate (SNI, SAN, :authority): the picker Service. */}}
{{- define "pointsman.picker.tlsName" -}}
{{- printf "%s.%s.svc" (include "pointsman.picker.fullname" .) .Release.Namespace }}
{{- end }}

{{- define "pointsman.picker.peers" -}}
{{- printf "%s-picker-peers" (include "pointsman.fullname" .) }}
{{- end }}

{{/* Whether the picker replicas share state: picker.replication.enabled, where auto means "when
     more than one replica can run" (replicas > 1, or autoscaling). */}}
{{- define "pointsman.picker.replication" -}}
{{- $r := .Values.picker.replication.enabled }}
{{- if eq (toString $r) "auto" }}
{{- if or (gt (int .Values.picker.replicas) 1) .Values.picker.autoscaling.enabled }}true{{ end }}
{{- else if eq (toString $r) "true" }}true{{ end }}
{{- end }}

{{- define "pointsman.picker.headlessFqdn" -}}
{{- printf "%s.%s.svc.%s" (include "pointsman.picker.headless" .) .Release.Namespace .Values.clusterDomain }}
{{- end }}

{{/* Labels. */}}
{{- define "pointsman.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "pointsman.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: Helm
app.kubernetes.io/part-of: pointsman
{{- end }}

{{- define "pointsman.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pointsman.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "pointsman.picker.selectorLabels" -}}
{{ include "pointsman.selectorLabels" . }}
app.kubernetes.io/component: picker
{{- end }}

{{- define "pointsman.envoy.selectorLabels" -}}
{{ include "pointsman.selectorLabels" . }}
app.kubernetes.io/component: gateway
{{- end }}

{{- define "pointsman.picker.labels" -}}
{{ include "pointsman.labels" . }}
app.kubernetes.io/component: picker
{{- end }}

{{- define "pointsman.envoy.labels" -}}
{{ include "pointsman.labels" . }}
app.kubernetes.io/component: gateway
{{- end }}

{{/* Images: digest wins over tag; the Pointsman tag defaults to appVersion. */}}
{{- define "pointsman.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "pointsman.envoy.image" -}}
{{- if .Values.envoy.image.digest }}
{{- printf "%s@%s" .Values.envoy.image.repository .Values.envoy.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.envoy.image.repository .Values.envoy.image.tag }}
{{- end }}
{{- end }}

{{/* TLS Secrets. */}}
{{- define "pointsman.picker.tlsSecret" -}}
{{- if eq .Values.picker.tls.mode "secret" }}
{{- required "picker.tls.secretName is required with picker.tls.mode=secret (a Secret with tls.crt, tls.key and ca.crt)" .Values.picker.tls.secretName }}
{{- else }}
{{- printf "%s-picker-tls" (include "pointsman.fullname" .) }}
{{- end }}
{{- end }}

{{- define "pointsman.envoy.tlsSecret" -}}
{{- if eq .Values.envoy.tls.mode "secret" }}
{{- required "envoy.tls.secretName is required with envoy.tls.mode=secret (a kubernetes.io/tls Secret)" .Values.envoy.tls.secretName }}
{{- else }}
{{- printf "%s-gateway-tls" (include "pointsman.fullname" .) }}
{{- end }}
{{- end }}

{{/* DNS names on the picker's certificate. */}}
{{- define "pointsman.picker.dnsNames" -}}
{{- $svc := include "pointsman.picker.fullname" . }}
{{- $headless := include "pointsman.picker.headless" . }}
{{- $ns := .Release.Namespace }}
{{- list (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .Values.clusterDomain) (printf "%s.%s.svc" $headless $ns) (printf "%s.%s.svc.%s" $headless $ns .Values.clusterDomain) | toJson }}
{{- end }}

{{/* DNS names on the gateway's certificate: the configured names, then the in-cluster Service. */}}
{{- define "pointsman.envoy.dnsNames" -}}
{{- $svc := include "pointsman.envoy.fullname" . }}
{{- $ns := .Release.Namespace }}
{{- concat .Values.envoy.tls.dnsNames (list (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .Values.clusterDomain)) | uniq | toJson }}
{{- end }}

{{/* replace OLD NEW in TEXT, failing when OLD is gone (files/envoy/envoy.yaml changed shape). */}}
{{- define "pointsman.replaceOrFail" -}}
{{- $text := index . 0 }}
{{- $old := index . 1 }}
{{- $new := index . 2 }}
{{- if not (contains $old $text) }}
{{- fail (printf "files/envoy/envoy.yaml no longer contains %q: update templates/envoy-configmap.yaml" $old) }}
{{- end }}
{{- replace $old $new $text }}
{{- end }}

{{/* "true" when picker.modelServerTls mounts a CA Secret into the picker and Envoy. */}}
{{- define "pointsman.modelServerCa" -}}
{{- if and .Values.picker.modelServerTls.enabled .Values.picker.modelServerTls.caSecretName }}true{{ end }}
{{- end }}

{{/* The CA Secret's volume, only its caKey, for the picker's and Envoy's pods alike. */}}
{{- define "pointsman.modelServerCa.volume" -}}
- name: model-server-ca
  secret:
    secretName: {{ .Values.picker.modelServerTls.caSecretName }}
    items:
      - key: {{ .Values.picker.modelServerTls.caKey }}
        path: {{ .Values.picker.modelServerTls.caKey }}
{{- end }}

{{/*
The model-server clusters' TLS (picker.modelServerTls), indented for a cluster: the chain verified
against the CA Secret through file-based SDS (a rotation needs no restart), else against the image's
system bundle; with insecureSkipVerify no validation context, so any certificate is accepted. The
chain, not the name, as the picker does: pods are reached by IP.
*/}}
{{- define "pointsman.envoy.modelServerTls" -}}
{{- $t := .Values.picker.modelServerTls }}
      transport_socket:
        name: envoy.transport_sockets.tls
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
{{- if $t.insecureSkipVerify }}
          common_tls_context: {}
{{- else if $t.caSecretName }}
          common_tls_context:
            validation_context_sds_secret_config:
              name: model-server-ca
              sds_config:
                resource_api_version: V3
                path_config_source:
                  path: /etc/envoy/sds/model-server-ca.yaml
                  watched_directory: { path: /etc/envoy/sds }
{{- else }}
          common_tls_context:
            validation_context:
              trusted_ca: { filename: /etc/ssl/certs/ca-certificates.crt }
{{- end }}
{{ end }}

{{/* Restricted pod security: shared by both workloads. */}}
{{- define "pointsman.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "pointsman.defaultSpread" -}}
- maxSkew: 1
  topologyKey: topology.kubernetes.io/zone
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- . | nindent 6 }}
- maxSkew: 1
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- . | nindent 6 }}
{{- end }}

{{- define "pointsman.certs.labels" -}}
{{ include "pointsman.labels" . }}
app.kubernetes.io/component: certs
{{- end }}

{{/* The certificate Job's spec (tls-generated.yaml); its hash names the Job. */}}
{{- define "pointsman.certsJobSpec" -}}
{{- $root := .root }}
{{- $v := $root.Values -}}
backoffLimit: 6
template:
  metadata:
    labels:
      {{- include "pointsman.selectorLabels" $root | nindent 6 }}
      app.kubernetes.io/component: certs
  spec:
    serviceAccountName: {{ .serviceAccount }}
    automountServiceAccountToken: true
    restartPolicy: OnFailure
    {{- with $v.imagePullSecrets }}
    imagePullSecrets:
      {{- toYaml . | nindent 6 }}
    {{- end }}
    securityContext:
      runAsNonRoot: true
      runAsUser: 65532
      runAsGroup: 65532
      seccompProfile:
        type: RuntimeDefault
    {{- with $v.picker.nodeSelector }}
    nodeSelector:
      {{- toYaml . | nindent 6 }}
    {{- end }}
    {{- with $v.picker.tolerations }}
    tolerations:
      {{- toYaml . | nindent 6 }}
    {{- end }}
    containers:
      {{- range .secrets }}
      - name: {{ .container }}
        image: {{ include "pointsman.image" $root }}
        imagePullPolicy: {{ $v.image.pullPolicy }}
        args:
          - certs
          - ensure
          - --secret
          - {{ .name }}
          - --namespace
          - {{ $root.Release.Namespace }}
          - --ca-name
          - {{ printf "%s %s" (include "pointsman.fullname" $root) .ca | quote }}
          - --days
          - {{ int $v.generatedCertificateDays | quote }}
          {{- range .dns }}
          - --dns
          - {{ . }}
          {{- end }}
          - --label
          - {{ printf "app.kubernetes.io/instance=%s" $root.Release.Name | quote }}
          - --label
          - app.kubernetes.io/part-of=pointsman
          - --label
          - {{ printf "app.kubernetes.io/component=%s" (ternary "picker" "gateway" (eq .container "picker")) }}
        env:
          - name: JAVA_TOOL_OPTIONS
            value: "-XX:MaxRAMPercentage=70.0 -Djava.io.tmpdir=/tmp"
        resources:
          {{- toYaml $v.certificateJob.resources | nindent 10 }}
        securityContext:
          {{- include "pointsman.containerSecurityContext" $root | nindent 10 }}
        volumeMounts:
          - name: tmp
            mountPath: /tmp
      {{- end }}
    volumes:
      - name: tmp
        emptyDir:
          sizeLimit: 16Mi
{{- end }}

{{/*
The weighted canary (canary.enabled): two routes inserted before the picked routes of
files/envoy/envoy.yaml. Envoy evaluates runtime_fraction on the stream's own random value
(conn_manager_impl.cc passes stream_id_ each time it matches the stream's route), so a request sampled
into canary-pointsman on its first match is sampled in again after ext_proc clears the route cache,
and then takes picked/picked-h2c by the destination the picker set. The rest take canary-balancer:
the fallback Service (envoy.defaultService, the existing balancer) with ext_proc off.
*/}}
{{- define "pointsman.envoy.canaryRoutes" -}}
{{- $match := "safe_regex: { regex: \"/v1/(chat/completions|completions|embeddings|responses)\" }" }}
{{- $c := .Values.canary }}
{{- $head := printf `                            %s
                            headers:
                              - name: ":method"
                                string_match: { exact: POST }
                              - name: x-gateway-destination-endpoint
                                present_match: false
` $match }}
                        # Canary (chart value canary): {{ $c.percent }}% of inference requests, sampled
                        # once per request, go through the picker (canary-pointsman, then picked or
                        # picked-h2c once it set a destination); the rest go to the existing
                        # balancer without it (canary-balancer). Change the share without a
                        # restart: POST 127.0.0.1:9901/runtime_modify?{{ $c.runtimeKey }}=N
                        - name: canary-pointsman
                          match:
                            runtime_fraction:
                              default_value: { numerator: {{ int $c.percent }}, denominator: HUNDRED }
                              runtime_key: {{ $c.runtimeKey }}
{{ $head }}                          route:
                            cluster: default-models
                            timeout: 0s
                            idle_timeout: 600s
                        - name: canary-balancer
                          match:
{{ $head }}                          route:
                            cluster: default-models
                            timeout: 0s
                            idle_timeout: 600s
                          typed_per_filter_config:
                            envoy.filters.http.ext_proc:
                              "@type": type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute
                              disabled: true
{{ end }}

{{/* The fleet tier (docs/fleet.md). */}}
{{- define "pointsman.fleet.fullname" -}}
{{- printf "%s-fleet" (include "pointsman.fullname" .) }}
{{- end }}

{{- define "pointsman.fleet.peers" -}}
{{- printf "%s-fleet-peers" (include "pointsman.fullname" .) }}
{{- end }}

{{- define "pointsman.fleet.replication" -}}
{{- $r := .Values.fleet.replication.enabled }}
{{- if eq (toString $r) "auto" }}
{{- if gt (int .Values.fleet.replicas) 1 }}true{{ end }}
{{- else if eq (toString $r) "true" }}true{{ end }}
{{- end }}

{{- define "pointsman.fleet.selectorLabels" -}}
{{ include "pointsman.selectorLabels" . }}
app.kubernetes.io/component: fleet
{{- end }}

{{- define "pointsman.fleet.labels" -}}
{{ include "pointsman.labels" . }}
app.kubernetes.io/component: fleet
{{- end }}

{{- define "pointsman.fleet.envoySelectorLabels" -}}
{{ include "pointsman.selectorLabels" . }}
app.kubernetes.io/component: fleet-envoy
{{- end }}

{{- define "pointsman.fleet.envoyLabels" -}}
{{ include "pointsman.labels" . }}
app.kubernetes.io/component: fleet-envoy
{{- end }}

{{- define "pointsman.picker.summaryService" -}}
{{- printf "%s-picker-summary" (include "pointsman.fullname" .) }}
{{- end }}

{{- /*
  The fleet Envoy's cluster for one member cluster's gateway (dict name, host, port): over the
  same TLS and protocol options as cluster-gateways in files/envoy-fleet/envoy.yaml (a test
  compares them).
*/}}
{{- define "pointsman.fleet.envoyMember" }}
    - name: {{ .name | quote }}
      type: STRICT_DNS
      dns_lookup_family: V4_PREFERRED
      connect_timeout: 2s
      load_assignment:
        cluster_name: {{ .name | quote }}
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address: { address: {{ .host | quote }}, port_value: {{ .port }} }
      typed_extension_protocol_options:
        envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
          "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
          common_http_protocol_options:
            idle_timeout: 300s
          auto_config:
            http_protocol_options: {}
            http2_protocol_options:
              max_concurrent_streams: 1024
      transport_socket:
        name: envoy.transport_sockets.tls
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
          sni: gateway.fleet.pointsman.internal
          common_tls_context:
            tls_params:
              tls_minimum_protocol_version: TLSv1_2
            alpn_protocols: [h2, http/1.1]
            validation_context:
              trusted_ca: { filename: /etc/envoy/clusters-ca/ca.crt }
              match_typed_subject_alt_names:
                - san_type: DNS
                  matcher: { exact: gateway.fleet.pointsman.internal }
{{- include "pointsman.fleet.envoyBreakers" . }}
{{- end }}

{{- /* The fleet Envoy's aggregate cluster for one route key (a list: primary, fallbacks...). */}}
{{- define "pointsman.fleet.envoyAggregate" }}
    - name: {{ join "+" . | quote }}
      connect_timeout: 2s
      lb_policy: CLUSTER_PROVIDED
      cluster_type:
        name: envoy.clusters.aggregate
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig
          clusters: [{{ range $i, $n := . }}{{ if $i }}, {{ end }}{{ $n | quote }}{{ end }}]
{{- include "pointsman.fleet.envoyBreakers" . }}
{{- end }}

{{- /*
  Circuit breakers of the generated clusters: as cluster-gateways', with room for the retries of a
  lost cluster's requests (each retry of an attempt that never started is one).
*/}}
{{- define "pointsman.fleet.envoyBreakers" }}
      circuit_breakers:
        thresholds:
{{- range $p := list "DEFAULT" "HIGH" }}
          - priority: {{ $p }}
            max_connections: 100000
            max_pending_requests: 100000
            max_requests: 100000
            max_retries: 10000
{{- end }}
{{- end }}

{{- /*
  The fleet Envoy's route to the cluster the fleet named in x-pointsman-fleet-route, retrying (up to
  the given number of fallbacks) only what never reached a cluster, each retry on the next cluster.
*/}}
{{- define "pointsman.fleet.envoyRoute" }}
                        # Rendered by the chart: the chosen cluster and its fallbacks, by the route
                        # key the fleet tier returned (an aggregate cluster of them, in order). A
                        # request is resent to the next one only when it never reached the chosen
                        # one's gateway: the connection failed or was refused, the stream was
                        # refused, or it was reset before any request byte was sent. Never after
                        # the upstream started answering: generation requests are not idempotent.
                        - name: chosen-cluster-with-fallbacks
                          match:
                            safe_regex: { regex: "/v1/(chat/completions|completions|embeddings|responses)" }
                            headers:
                              - name: ":method"
                                string_match: { exact: POST }
                              - name: x-pointsman-fleet-route
                                present_match: true
                          route:
                            cluster_header: x-pointsman-fleet-route
                            timeout: 0s
                            idle_timeout: 600s
                            retry_policy:
                              # what never reached a model: a refused or failed connection, and a
                              # cluster gateway's own answer that it cannot take the request now
                              retry_on: connect-failure,refused-stream,reset-before-request,retriable-headers
                              retriable_headers:
                                - name: x-pointsman-not-started
                                  string_match: { exact: "true" }
                              num_retries: {{ . }}
                              retry_priority:
                                name: envoy.retry_priorities.previous_priorities
                                typed_config:
                                  "@type": type.googleapis.com/envoy.extensions.retry.priority.previous_priorities.v3.PreviousPrioritiesConfig
                                  update_frequency: 1
                              retry_host_predicate:
                                - name: envoy.retry_host_predicates.previous_hosts
                                  typed_config:
                                    "@type": type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate
                              host_selection_retry_max_attempts: 3
                          # The gateway that answered, for the fleet tier (its ext_proc reads it on
                          # the response and counts a fallback's answer as a refusal by the chosen
                          # cluster); the header-mutation filter removes it before the client.
                          response_headers_to_add:
                            - header: { key: x-gateway-destination-endpoint-served, value: "%UPSTREAM_REMOTE_ADDRESS%" }
                              append_action: OVERWRITE_IF_EXISTS_OR_ADD
{{ end }}

{{- /* One rule of the PrometheusRule: {rule: {alert, expr, for, severity, summary, description}, labels, runbook}. */}}
{{- define "pointsman.alertRule" -}}
- alert: {{ .rule.alert }}
  expr: {{ .rule.expr | quote }}
  for: {{ .rule.for }}
  labels:
    severity: {{ .rule.severity }}
    {{- with .labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    summary: {{ .rule.summary | quote }}
    description: {{ .rule.description | quote }}
    {{- if .runbook }}
    runbook_url: {{ printf "%s#%s" .runbook (lower .rule.alert) | quote }}
    {{- end }}
{{- end }}
