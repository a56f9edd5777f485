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
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The name Envoy checks on the picker's certificate (SNI, SAN, :authority): the picker Service. */}}
{{- define "pointsman.picker.tlsName" -}}
{{- printf "%s.%s.svc" (include "pointsman.picker.fullname" .) .Release.Namespace }}
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
app.kubernetes.io/managed-by: {{ .Release.Service }}
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
