import {describe, expect, it} from 'vitest';
import {
  bucketLatency,
  bucketStringLength,
  sanitizeParams,
  telemetryName,
} from '../../../src/core/telemetry/sanitize.js';

// Values from chrome-devtools-mcp's telemetry rules (reference §4.3).
describe('telemetry sanitizing', () => {
  it('buckets latency to the first bucket at or above it, capped at 10,000 ms', () => {
    expect(
      [0, 3, 50, 51, 100, 101, 999, 1000, 1001, 9_999, 10_000, 60_000].map(bucketLatency),
    ).toEqual([50, 50, 50, 100, 100, 250, 1000, 1000, 2500, 10_000, 10_000, 10_000]);
  });

  it('buckets string lengths, capped at 10,000', () => {
    expect([0, 1, 3, 10, 11, 20, 10_001].map(bucketStringLength)).toEqual([
      0, 1, 5, 10, 20, 20, 10_000,
    ]);
  });

  it('names go snake_case, digits join the word before them', () => {
    expect(telemetryName('filePath')).toBe('file_path');
    expect(telemetryName('execute_3p_developer_tool')).toBe('execute3p_developer_tool');
  });

  it('keeps numbers, booleans and enums, counts arrays, drops element uids, ids and string content', () => {
    expect(
      sanitizeParams(
        {
          pageId: 3,
          uid: '1_2',
          function: 'secret()',
          types: ['log', 'error'],
          dblClick: true,
          format: 'png',
          to_uid: '4',
          reqid: 7,
        },
        {
          uid: 'element',
          to_uid: 'element',
          reqid: 'number',
          function: 'string',
          types: 'array',
          dblClick: 'boolean',
          format: 'enum',
        },
      ),
    ).toEqual({page_id: 3, function_length: 10, types_count: 2, dbl_click: true, format: 'png'});
  });
});
