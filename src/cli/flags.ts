/**
 * Reading flag values: yargs declares each flag with its type and splits the words; a zod schema
 * is the one judge of a value (for a tournament flag, the spec's own field schema), and a refusal
 * is one line naming the flag, what its schema takes and what was typed.
 */
import { z } from 'zod';
import { UsageError, show } from '../core/errors.ts';
import { outputFileProblem } from '../platform/files.ts';
import { oneOf } from './argv.ts';

/**
 * A flag's text as an integer: decimal digits, optionally signed. Other text (`1e3`, `0x10`, `1.5`,
 * an empty value) becomes NaN, which every number schema refuses.
 */
export function integerText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
}

/** A flag's text as a number (`1.5`, `1e3`); empty text becomes NaN. */
export function numberText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
}

/** An integer flag whose range is `schema`'s. */
export function integerFlag<T extends z.ZodType>(schema: T) {
  return z.preprocess(integerText, schema);
}

/** The schema inside optional, default and preprocessing wrappers: the one that holds the range. */
function innermost(schema: z.ZodType): z.ZodType {
  for (;;) {
    if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) schema = schema.unwrap() as z.ZodType;
    else if (schema instanceof z.ZodPipe) schema = schema.out as z.ZodType;
    else return schema;
  }
}

/** What a number schema takes, in words: `an integer from 1 to 256`, `a positive number of ms up to 3600000`. */
function numberWords(schema: z.ZodNumber, unit: string | undefined): string {
  const min = schema.minValue ?? -Infinity;
  const max = schema.maxValue ?? Infinity;
  const bounded = max < Number.MAX_SAFE_INTEGER;
  if (schema.isInt) {
    if (bounded) return `an integer from ${min} to ${max}`;
    return min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer from ${min}`;
  }
  const positive = min === 0 && !schema.safeParse(0).success;
  return `a ${positive ? 'positive ' : ''}number${unit ? ` of ${unit}` : ''}${bounded ? ` up to ${max}` : ''}`;
}

/**
 * What `schema` takes, in words: read from a number's range or an enum's values, else from the
 * refusal when the schema words it (`expected …`); undefined otherwise.
 */
export function expectation(schema: z.ZodType, issue: z.core.$ZodIssue, unit?: string): string | undefined {
  const inner = innermost(schema);
  if (inner instanceof z.ZodNumber) return numberWords(inner, unit);
  if (inner instanceof z.ZodEnum) return oneOf(inner.options.map(String));
  return /^expected /.test(issue.message) ? issue.message.slice('expected '.length) : undefined;
}

/**
 * A flag's value read by its schema. A refusal is a UsageError, `Expected <label> to be <what the
 * schema takes>, got <the value as typed>`; `expected` words it where the schema cannot.
 */
export function flagValue<T extends z.ZodType>(label: string, schema: T, value: unknown, expected?: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`Expected ${label} to be ${expected ?? expectation(schema, issue) ?? issue.message}, got ${show(value)}`);
}

/** Refuses, in one line and before any work, a report file that could not be written (`report --out`, `tournament --report`). */
export function refuseReportPath(path: string): void {
  const problem = outputFileProblem(path);
  if (problem !== null) throw new UsageError(`Cannot write the report to ${path}: ${problem}`);
}

/** `--seed`: a 32-bit unsigned integer, as every seed of the arena is. */
export const SEED_FLAG = integerFlag(z.number().int().min(0).max(0xffffffff));
