import type {FastifyInstance} from 'fastify';
import {crossSiteRefusal, hostRefusal, isWriteMethod} from '../../source/net/index.js';

/** Route config of a route any site may reach (`{config: {public: true}}`): the Host check skips it. */
export interface PublicRouteConfig {
  public?: boolean;
  /** Reads from any site's pages are fine here although the server refuses them elsewhere (a feed an aggregator page embeds). */
  crossSiteReads?: boolean;
}

// Route config is typed per plugin: the guard's key is declared here so routes may write it even
// when another plugin (@fastify/multipart) adds keys of its own to the same interface.
declare module 'fastify' {
  interface FastifyContextConfig {
    public?: boolean;
    crossSiteReads?: boolean;
  }
}

export interface GuardOptions {
  /** The address others reach the server at (behind a proxy, a forwarded port): its host and origin are this server's too. */
  publicUrl?: () => string | undefined;
  /** Refuse reads from other sites' pages too (not only writes), except on public routes and those marked `crossSiteReads`. */
  refuseCrossSiteReads?: boolean;
}

/**
 * Keeps the browser out of a local server (source/net/local-guard.ts says how): the Host must
 * name this server (DNS rebinding), and writes must come from its own pages or from programs.
 * Routes marked public (`config: {public: true}`, e.g. a shared RSS feed) skip the Host check.
 */
export function installLocalGuard(app: FastifyInstance, options: GuardOptions = {}): void {
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config as PublicRouteConfig | undefined;
    const isPublic = config?.public === true;
    const publicUrl = options.publicUrl?.();
    if (!isPublic) {
      const refusal = hostRefusal(request.headers.host, request.socket, publicUrl);
      if (refusal) throw refusal;
    }
    if (isWriteMethod(request.method)) {
      const refusal = crossSiteRefusal(request.method, request.headers, publicUrl);
      if (refusal) throw refusal;
    } else if (options.refuseCrossSiteReads && !isPublic && config?.crossSiteReads !== true) {
      const refusal = crossSiteRefusal(request.method, request.headers, publicUrl, 'requests');
      if (refusal) throw refusal;
    }
  });
}
