{{/* The release's full name, within the 63 characters of a DNS label (leaving room for suffixes). */}}
{{- define "tenant-registry.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "tenant-registry.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component (api, worker, migration). */}}
{{- define "tenant-registry.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "tenant-registry.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{- define "tenant-registry.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "tenant-registry.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* Where the Temporal TLS Secret is mounted. */}}
{{- define "tenant-registry.temporalTlsDir" -}}/etc/tenant-registry/temporal-tls{{- end -}}

{{/* The secrets of the API and the worker, by reference. */}}
{{- define "tenant-registry.secretEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.databaseUrlKey }}
- name: TEMPORAL_PAYLOAD_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.temporalPayloadKeysKey }}
- name: REGISTRY_SECRET_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.registrySecretKeysKey }}
{{- if .Values.identityProvider.keycloak.url }}
- name: IDP_ADMIN_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.idpAdminClientSecretKey }}
{{- end }}
{{- end -}}

{{/* "true" when a Temporal TLS Secret is mounted into the pods. */}}
{{- define "tenant-registry.temporalTlsMounted" -}}
{{- if and .Values.temporal.tls.enabled .Values.temporal.tls.existingSecret -}}true{{- end -}}
{{- end -}}

{{/* Pods of one component spread across nodes where they can. */}}
{{- define "tenant-registry.topologySpread" -}}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "tenant-registry.selector" . | nindent 8 }}
{{- end -}}
