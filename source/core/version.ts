import packageJson from '../../package.json' with {type: 'json'};

/** workbench's version, written once: in package.json (the bundle carries it from there). */
export const VERSION: string = packageJson.version;
