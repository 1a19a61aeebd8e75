import ProxyList from './list.js';

export const description = 'Dev proxies owned by the daemon: list (the default), start, stop, status, exec, primitives';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default ProxyList.withProps({options: {json: false}});
