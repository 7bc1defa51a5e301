import { Type, type TBoolean, type TOptional } from '@sinclair/typebox';
import { HOOK_FLAGS, type HookFlag } from '../../../services/hooks/flags';

type ByFlag<F extends readonly HookFlag[], T> = { [K in F[number]]: T };

const byFlag = <F extends readonly HookFlag[], T>(flags: F, value: (flag: F[number]) => T) =>
  Object.fromEntries(flags.map((flag) => [flag, value(flag)])) as ByFlag<F, T>;

/** Response properties for hook flags, in the order given. */
export const flagProperties = <const F extends readonly HookFlag[]>(flags: F): ByFlag<F, TBoolean> => byFlag(flags, () => Type.Boolean());

/** Request properties: every flag, each optional. */
export const optionalFlagProperties = (): ByFlag<typeof HOOK_FLAGS, TOptional<TBoolean>> =>
  byFlag(HOOK_FLAGS, () => Type.Optional(Type.Boolean()));

/** A hook row's `0`/`1` flags as booleans. */
export const presentFlags = <const F extends readonly HookFlag[]>(hook: Record<HookFlag, 0 | 1>, flags: F): ByFlag<F, boolean> =>
  byFlag(flags, (flag) => hook[flag] === 1);
