#!/bin/sh
# One-shot (temporal-namespace in docker-compose.yml): registers the namespace the API and the worker use once the
# Temporal frontend answers. Idempotent.
set -eu
namespace=${DEFAULT_NAMESPACE:-default}
address=${TEMPORAL_ADDRESS:-temporal:7233}
host=${address%:*}
port=${address##*:}
# The first IPv4 address: the CLI may otherwise try an IPv6 address the server does not listen on.
ip=$(getent ahostsv4 "$host" | awk 'NR == 1 { print $1 }')
target="${ip:-$host}:$port"

attempt=0
until temporal operator cluster health --address "$target" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  if [ "$attempt" -ge 30 ]; then
    echo "Temporal at $address did not become healthy" >&2
    exit 1
  fi
  sleep 2
done

if temporal operator namespace describe --namespace "$namespace" --address "$target" >/dev/null 2>&1; then
  echo "namespace $namespace exists"
else
  temporal operator namespace create --namespace "$namespace" --retention "${NAMESPACE_RETENTION:-7d}" --address "$target"
  echo "namespace $namespace created"
fi
