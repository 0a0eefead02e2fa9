// The default namespace has one name in everything a model reads and in the paths that need a name: the service's own,
// "__default__". Arguments accept "" for it as well.

/** The service's name of a namespace: "" (the default namespace) is "__default__". */
export function namespaceName(namespace: string): string {
  return namespace === "" ? "__default__" : namespace;
}
