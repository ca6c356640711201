/**
 * The REST contracts of spec §7, every feature's schemas in one module (the console loads it with one dynamic
 * import, keeping zod out of the /login bundle). The routes themselves are in routes.ts.
 */
export { API_ERROR_CODES } from './errors';
export * from './route';
export * from './accounts';
export * from './devices';
export * from './cameras';
export * from './layout';
export * from './usage';
export * from './signalling';
export * from './agent';
export * from './meta';
export * from './containers';
export * from './routes';
