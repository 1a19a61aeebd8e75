import type {proxyMethods} from '../protocol/proxies.js';
import type {Handlers} from './context.js';

export const proxyHandlers: Handlers<keyof typeof proxyMethods> = {
  'proxy.start': (params, {proxies}) => proxies.start(params),
  'proxy.stop': ({id}, {proxies}) => proxies.stop(id),
  'proxy.list': (_params, {proxies}) => proxies.list(),
  'proxy.exec': (params, {proxies}) => proxies.exec(params),
  'proxy.log': (params, {proxies}) => proxies.log(params),
  'proxy.pages': ({id}, {proxies}) => proxies.pages(id),
};
