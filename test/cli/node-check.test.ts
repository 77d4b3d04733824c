import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { minimumNode, nodeVersionProblem } from '../../bin/node-check.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

describe('the Node.js version check at start-up', () => {
  it('takes the minimum from engines.node in package.json', () => {
    const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node;
    expect(engines).toBe(`>=${minimumNode().join('.')}`);
    expect(minimumNode()).toEqual([20, 19, 0]);
  });

  it('accepts the minimum and anything newer, major by major', () => {
    for (const v of ['20.19.0', '20.19.1', '20.20.2', '22.0.0', '24.21.0', '26.1.0']) {
      expect(nodeVersionProblem(v), v).toBeNull();
    }
  });

  it('refuses older versions with one line that names both versions', () => {
    for (const v of ['20.18.3', '20.0.0', '18.20.8', '16.20.2']) {
      const problem = nodeVersionProblem(v);
      expect(problem, v).toContain(`Node.js ${v} is too old`);
      expect(problem).toContain('20.19.0 or newer');
      expect(problem).not.toContain('\n');
    }
  });

  it('passes on the running Node.js, so the bin starts', () => {
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
    const bin = fileURLToPath(new URL('../../bin/arena.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('arena <command>');
  });
});
