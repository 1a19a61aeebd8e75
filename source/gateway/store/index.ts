// The gateway's storage: its own tables (channels, their items, origin copies, WebSub
// subscriptions) through the shared knex bootstrap; SQLite under WORKBENCH_HOME by default.
export {openGatewayStore, defaultGatewayDatabase} from './open-store.js';
export {gatewayMigrations} from './migrations.js';
