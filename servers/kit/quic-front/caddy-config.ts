/** What the front serves: HTTPS (HTTP/1.1, HTTP/2, HTTP/3 over QUIC) on each of `hosts` at `port`, proxied to the node server at `upstream`. */
export interface FrontConfig {
  /** The addresses it listens on, e.g. 127.0.0.1 and ::1: a browser resolves `localhost` to either. */
  hosts: string[];
  port: number;
  /** `127.0.0.1:<port>`: the plain HTTP listener of the kit server. */
  upstream: string;
  certFile: string;
  keyFile: string;
  /** Caddy's own storage (locks, autosave): inside WORKBENCH_HOME, never the user's home. */
  storageDir: string;
}

/**
 * Caddy's JSON config for the front: one server on `hosts` × `port` speaking h1, h2 and h3 with our
 * certificate (no automatic HTTPS: Caddy asks no CA for anything and opens no port 80), every
 * request proxied to the node listener with its Host and the client's address kept. The admin
 * API is off: nothing else on the machine can reconfigure it.
 */
export function caddyConfig(config: FrontConfig): Record<string, unknown> {
  return {
    admin: {disabled: true},
    storage: {module: 'file_system', root: config.storageDir},
    apps: {
      http: {
        servers: {
          workbench: {
            listen: config.hosts.map((host) => `${host.includes(':') ? `[${host}]` : host}:${config.port}`),
            protocols: ['h1', 'h2', 'h3'],
            automatic_https: {disable: true},
            tls_connection_policies: [{certificate_selection: {any_tag: ['workbench']}}],
            routes: [{handle: [{handler: 'reverse_proxy', upstreams: [{dial: config.upstream}]}]}],
          },
        },
      },
      tls: {certificates: {load_files: [{certificate: config.certFile, key: config.keyFile, tags: ['workbench']}]}},
    },
  };
}
