/** Which errors mean "the database is unreachable" (503 Database_unavailable), and the outage status (issue 15). */
import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DatabaseStatus, isDatabaseUnavailable } from '../../../src/server/db/availability';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['08006 connection failure', withCode('08006')],
    ['08001 cannot establish', withCode('08001')],
    ['57P01 admin shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash shutdown', withCode('57P02')],
    ['57P03 cannot connect now', withCode('57P03', 'the database system is starting up')],
    ['ECONNREFUSED', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', withCode('ECONNRESET')],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['pg-pool: connect timeout', new Error('timeout exceeded when trying to connect')],
    ['pg: not queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['AggregateError of refusals', new AggregateError([withCode('ECONNREFUSED')], '')],
    ['drizzle wrapping one', new DrizzleQueryError('select 1', [], withCode('57P01'))],
  ])('%s: yes', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['unique violation 23505', withCode('23505', 'duplicate key value violates unique constraint')],
    ['syntax error 42601', withCode('42601')],
    ['query canceled 57014', withCode('57014')],
    ['drizzle wrapping a constraint error', new DrizzleQueryError('insert', [], withCode('23503'))],
    [
      'fetch failed, caused by a refusal elsewhere',
      new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }),
    ],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s: no', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('DatabaseStatus', () => {
  it('logs one line when an outage starts and one when it ends, however many errors come between', () => {
    const lines: string[] = [];
    const status = new DatabaseStatus();
    status.setLogger({
      warn: (m) => lines.push(`warn ${String(m)}`),
      info: (m) => lines.push(`info ${String(m)}`),
    });
    expect(status.up).toBe(true);
    for (let i = 0; i < 50; i++)
      status.markDown(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'));
    expect(status.up).toBe(false);
    expect(status.reason).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1');
    status.markUp();
    status.markUp();
    expect(status.up).toBe(true);
    expect(status.outages).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warn database unavailable \(ECONNREFUSED/);
    expect(lines[1]).toMatch(/^info database reachable again after \d+\.\d s$/);
  });
});
