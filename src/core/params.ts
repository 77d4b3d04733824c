import { z } from 'zod';
import { ParamError, TooLargeError, didYouMean, show } from './errors.ts';
import type { AnyFamily, AnyGame, GameFamily, Game, Solver } from './game.ts';
import type { ParamSpec } from './param-spec.ts';

export type { ParamSpec } from './param-spec.ts';

/** An inclusive integer range; `min === max` for a fixed value. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

const NUMBER_TEXT = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Turns numeric strings into numbers and leaves everything else for the schema to reject. */
export function toNumber(v: unknown): unknown {
  return typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : v;
}

/** Splits `"1,5,8"` or `"-1 3 9 4"` into numbers; a single number becomes a one-element list. */
export function toNumberList(v: unknown): unknown {
  if (typeof v === 'number') return [v];
  if (typeof v === 'string') {
    const parts = v.trim().split(/[\s,]+/).filter((p) => p !== '');
    return parts.map(toNumber);
  }
  if (Array.isArray(v)) return v.map(toNumber);
  return v;
}

/**
 * What a parameter's schema accepts, as plain data. Discovery reads a bot's option table in a child
 * process (the bot's code never runs in the arena's): the child sends each option's shape, and the
 * arena rebuilds the same schema from it (`schemaFromShape`) to validate options. The helpers below
 * make every schema from its shape, so a table built with them is always describable.
 */
export type SchemaShape =
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'number'; readonly min: number; readonly max: number; readonly exclusiveMin?: boolean; readonly levels?: Readonly<Record<string, number>> }
  | { readonly kind: 'int-set'; readonly maxSize: number; readonly maxValue: number }
  | { readonly kind: 'int-list'; readonly minLength: number; readonly maxLength: number; readonly min: number; readonly max: number }
  | { readonly kind: 'range'; readonly min: number; readonly max: number }
  | { readonly kind: 'enum'; readonly choices: readonly [string, ...string[]] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'string' };

/** Where a schema keeps its shape: a global symbol, so copies of this module (a bundle's) agree. */
const SHAPE = Symbol.for('take-arena.schema-shape');

function shaped<T>(schema: z.ZodType<T>, shape: SchemaShape): z.ZodType<T> {
  Object.defineProperty(schema, SHAPE, { value: shape, enumerable: false });
  return schema;
}

/** The schema a shape describes (what the helpers below build). */
export function schemaFromShape(shape: SchemaShape): z.ZodType<unknown> {
  switch (shape.kind) {
    case 'int':
      return intSchema(shape.min, shape.max);
    case 'number':
      return numberSchema(shape.min, shape.max, shape.exclusiveMin === true, shape.levels);
    case 'int-set':
      return intSetSchema(shape.maxSize, shape.maxValue);
    case 'int-list':
      return intListSchema(shape.minLength, shape.maxLength, shape.min, shape.max);
    case 'range':
      return rangeSchema(shape.min, shape.max);
    case 'enum':
      return enumSchema(shape.choices);
    case 'boolean':
      return shaped(z.boolean(), shape);
    case 'string':
      return shaped(z.string(), shape);
  }
}

/**
 * The shape of a schema, or null when it cannot be described: one built by the helpers here, or a
 * plain `z.boolean()`, `z.string()` (without checks) or `z.enum([...])`.
 */
export function schemaShape(schema: unknown): SchemaShape | null {
  if (schema === null || typeof schema !== 'object') return null;
  const tagged = (schema as { [SHAPE]?: SchemaShape })[SHAPE];
  if (tagged) return tagged;
  const def = (schema as { _zod?: { def?: { type?: unknown; checks?: unknown[]; entries?: Record<string, unknown> } } })._zod?.def;
  if (!def || (def.checks?.length ?? 0) > 0) return null;
  if (def.type === 'boolean') return { kind: 'boolean' };
  if (def.type === 'string') return { kind: 'string' };
  if (def.type === 'enum' && def.entries) {
    const values = Object.values(def.entries);
    if (values.length > 0 && values.every((v) => typeof v === 'string')) return { kind: 'enum', choices: values as [string, ...string[]] };
  }
  return null;
}

/** An integer in [min, max]. */
export function intSchema(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): z.ZodType<number> {
  return shaped(z.preprocess(toNumber, z.number().int().min(min).max(max)), { kind: 'int', min, max });
}

/**
 * A number in [min, max] (or (min, max] with `exclusiveMin`); `levels` names values (`easy` → 0.3),
 * matched without regard to case.
 */
export function numberSchema(min: number, max: number, exclusiveMin = false, levels?: Readonly<Record<string, number>>): z.ZodType<number> {
  const base = exclusiveMin ? z.number().gt(min) : z.number().min(min);
  const named = (v: unknown): unknown => {
    if (levels && typeof v === 'string') {
      const t = v.trim().toLowerCase();
      if (Object.hasOwn(levels, t)) return levels[t];
    }
    return toNumber(v);
  };
  return shaped(z.preprocess(named, base.max(max)), { kind: 'number', min, max, ...(exclusiveMin ? { exclusiveMin } : {}), ...(levels ? { levels: { ...levels } } : {}) });
}

/** A set of distinct positive integers, returned sorted ascending. */
export function intSetSchema(maxSize = 64, maxValue = Number.MAX_SAFE_INTEGER): z.ZodType<readonly number[]> {
  return shaped(
    z.preprocess(
      toNumberList,
      z
        .array(z.number().int().min(1).max(maxValue))
        .min(1)
        .max(maxSize)
        .refine((xs) => new Set(xs).size === xs.length)
        .transform((xs) => [...xs].sort((a, b) => a - b)),
    ),
    { kind: 'int-set', maxSize, maxValue },
  );
}

/** A list of integers (repeats allowed) of length [minLength, maxLength]. */
export function intListSchema(
  minLength: number,
  maxLength: number,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): z.ZodType<readonly number[]> {
  return shaped(z.preprocess(toNumberList, z.array(z.number().int().min(min).max(max)).min(minLength).max(maxLength)), { kind: 'int-list', minLength, maxLength, min, max });
}

/** An integer or an inclusive range: `7`, `[50, 200]`, `"50..200"`; returned as `{min, max}`. */
export function rangeSchema(min = 0, max = Number.MAX_SAFE_INTEGER): z.ZodType<Range> {
  const int = z.number().int().min(min).max(max);
  return shaped(
    z.preprocess(
      (v) => {
        if (typeof v === 'string') {
          const m = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$/.exec(v);
          if (m) return [Number(m[1]), Number(m[2])];
          return toNumber(v);
        }
        if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'min' in v && 'max' in v) {
          return [(v as Range).min, (v as Range).max];
        }
        return v;
      },
      z
        .union([int.transform((n) => [n, n] as const), z.tuple([int, int])])
        .refine(([a, b]) => a <= b)
        .transform(([a, b]): Range => ({ min: a, max: b })),
    ),
    { kind: 'range', min, max },
  );
}

/** One of a fixed set of strings. */
export function enumSchema<const T extends readonly [string, ...string[]]>(choices: T): z.ZodType<T[number]> {
  return shaped(z.enum(choices) as unknown as z.ZodType<T[number]>, { kind: 'enum', choices: [...choices] as [string, ...string[]] });
}

/** Canonical text of a parameter value, as used in variant ids and listings. */
export function formatParamValue(v: unknown): string {
  if (Array.isArray(v)) return v.map(formatParamValue).join(',');
  if (v !== null && typeof v === 'object' && 'min' in v && 'max' in v) {
    const r = v as Range;
    return r.min === r.max ? String(r.min) : `${r.min}..${r.max}`;
  }
  return String(v);
}

/**
 * The stable, readable id of a variant: `subtraction{moves=1,5,8,10;n=50..200}`. Parameters appear
 * in the family's declaration order; undefined ones are left out.
 */
export function variantId(family: string, params: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${formatParamValue(v)}`);
  return parts.length === 0 ? family : `${family}{${parts.join(';')}}`;
}

/**
 * Validates raw parameters (JSON values or strings) against a parameter table, filling defaults.
 * Throws ParamError naming the first bad field: ``Expected `moves` to be …, got "3,0"``.
 */
export function parseParams<P extends object>(
  owner: string,
  specs: { readonly [K in keyof P]-?: ParamSpec<P[K]> },
  raw: Readonly<Record<string, unknown>>,
): P {
  const names = Object.keys(specs);
  for (const key of Object.keys(raw)) {
    if (!names.includes(key)) {
      const known = names.length ? `; expected one of: ${names.join(', ')}` : '; it takes none';
      throw new ParamError(`Unknown parameter \`${key}\` for ${owner}${didYouMean(key, names)}${known}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const spec = (specs as Record<string, ParamSpec<unknown>>)[name]!;
    const value = raw[name];
    if (value === undefined) {
      if (spec.default !== undefined) out[name] = spec.default;
      else if (!spec.optional) throw new ParamError(`Missing parameter \`${name}\` for ${owner}: expected ${spec.expected}`);
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      throw new ParamError(`Expected \`${name}\` to be ${spec.expected}, got ${show(value)}`);
    }
    out[name] = parsed.data;
  }
  return out as P;
}

/**
 * Builds a variant of a family from raw parameters, validating them first. The solver contract is
 * enforced here, once for every family: `solver()` builds at most once per variant (bots ask for it
 * every move, and its tables are the costly part) and never throws (a variant too large to solve,
 * TooLargeError, has none).
 */
export function createVariant<P extends object, S, M>(
  family: GameFamily<P, S, M>,
  raw: Readonly<Record<string, unknown>> = {},
): Game<S, M> {
  const game = family.create(parseParams(family.id, family.params, raw));
  const build = game.solver;
  if (build) {
    let built = false;
    let solver: Solver<S, M> | undefined;
    game.solver = () => {
      if (!built) {
        try {
          solver = build.call(game);
        } catch (err) {
          if (!(err instanceof TooLargeError)) throw err;
        }
        built = true;
      }
      return solver;
    };
  }
  return game;
}

/** Type-erasing identity for families in the registry. */
export function defineFamily<P extends object, S, M>(family: GameFamily<P, S, M>): GameFamily<P, S, M> {
  return family;
}

/**
 * Splits `key=value;key=value` (variant ids) or `key=value,key=value` (bot options, with `,`
 * as separator only before a `key=`) into raw string values.
 */
export function parseKeyValues(text: string, owner: string): Record<string, string> {
  // No prototype: `__proto__` or `constructor` are names like any other (and then unknown parameters).
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const trimmed = text.trim();
  if (trimmed === '') return out;
  // A comma separates pairs only when a `key=` follows, so `moves=1,5,8` stays one value.
  const pairs = trimmed.split(/;|,(?=\s*[A-Za-z][\w-]*\s*=)/);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ParamError(`Expected \`key=value\` in ${owner}, got ${show(pair.trim())}`);
    const key = pair.slice(0, eq).trim();
    if (Object.hasOwn(out, key)) throw new ParamError(`Parameter \`${key}\` is given twice in ${owner}`);
    out[key] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** Splits a variant id `family{k=v;…}` (or a bare family name) into its family and raw params. */
export function splitVariantId(text: string): { family: string; params: Record<string, string> } {
  const m = /^\s*([A-Za-z][\w-]*)\s*(?:\{(.*)\})?\s*$/s.exec(text);
  if (!m) {
    throw new ParamError(`Expected a game variant like \`subtraction{moves=1,5,8,10;n=50..200}\`, got ${show(text)}`);
  }
  return { family: m[1]!, params: parseKeyValues(m[2] ?? '', `variant ${m[1]}`) };
}

/** Erases a family's types for registries. */
export function eraseFamily<P extends object, S, M>(family: GameFamily<P, S, M>): AnyFamily {
  return family as unknown as AnyFamily;
}

/** Erases a game's types for schedules and bots. */
export function eraseGame<S, M>(game: Game<S, M>): AnyGame {
  return game as unknown as AnyGame;
}
