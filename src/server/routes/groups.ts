/**
 * Handlers of the groups feature's routes (src/protocol/groups.ts; issue 16 §2 groups; §3 Group; §7 groups (group_type device or camera): create, rename, nest, delete, assign devices and cameras).
 */
import type { groupRoutes } from '../../protocol/groups';
import type { HandlersOf } from './register';

export const groupHandlers: HandlersOf<typeof groupRoutes> = () => ({});
