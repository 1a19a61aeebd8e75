// The GraphQL server of the build over a SQLite file, in a child process, for bench/gql-sqlite-readers.mjs:
// argv: the file, the reader processes (0: every statement on the server's thread), the metadata
// rules as JSON. Prints `{"url": …}` once it answers; runs until killed.
const {openGqlService} = await import('../dist/source/gql/service.js');
const {startGraphqlServer} = await import('../dist/servers/graphql/index.js');

const [file, readers, metadata] = process.argv.slice(2);
const settings = {
  provider: 'sqlite',
  connectionString: `Data Source=${file}`,
  metadata: JSON.parse(metadata),
  path: '/graphql',
  playground: '/',
  disableAuth: true,
  http3: {enabled: false, httpsPort: 5001},
  jwt: {},
  cdc: {},
  source: 'bench',
};
const service = await openGqlService(settings, {sqliteReaders: Number(readers)});
const server = await startGraphqlServer({service, port: 0, playground: {js: '', css: ''}, warn: () => undefined});
console.log(JSON.stringify({url: server.url}));
