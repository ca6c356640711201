/**
 * CSV export of a dashboard chart (src/console/features/analytics/exportCsv.ts; issue 11 "Export CSV"):
 * RFC 4180 quoting, the key column named by the chart's grouping, formula-looking text neutralised, and safe
 * file names.
 */
import { describe, expect, it } from 'vitest';
import { chartCsv, csvField, exportFileName } from '../../../src/console/features/analytics/exportCsv';

describe('chart CSV', () => {
  it('names the key column by the grouping and ends every record with CRLF', () => {
    expect(
      chartCsv({ group_by: 'time' }, [
        { key: '2026-11-28T00:00:00.000Z', value: 3 },
        { key: '2026-11-28T01:00:00.000Z', value: 0 },
      ]),
    ).toBe('bucket_start,count\r\n2026-11-28T00:00:00.000Z,3\r\n2026-11-28T01:00:00.000Z,0\r\n');
    expect(chartCsv({ group_by: 'class' }, [{ key: 'car', value: 12 }])).toBe('class,count\r\ncar,12\r\n');
    expect(chartCsv({ group_by: 'gender' }, [])).toBe('gender,count\r\n');
  });

  it('quotes commas, quotes and line breaks, and doubles quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('plain')).toBe('plain');
    expect(chartCsv({ group_by: 'camera' }, [{ key: 'dock, north', value: 1 }])).toBe(
      'camera,count\r\n"dock, north",1\r\n',
    );
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@cmd')).toBe("'@cmd");
    // numbers are numbers, including negative ones and non-finite ones left empty
    expect(csvField(-2)).toBe('-2');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('makes file names of safe characters', () => {
    expect(exportFileName('Seen by class', 'csv')).toBe('Seen-by-class.csv');
    expect(exportFileName('../../etc/passwd', 'png')).toBe('etc-passwd.png');
    expect(exportFileName('   ', 'csv')).toBe('chart.csv');
    expect(exportFileName('Café ☕', 'csv')).toBe('Cafe.csv');
  });
});
