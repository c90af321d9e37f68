/**
 * take_snapshot: the accessibility tree as text with element uids.
 */
import {z} from 'zod';
import {definePageTool} from './base/definition.js';
import {uidString} from './base/paramShapes.js';

export const takeSnapshot = definePageTool({
  name: 'take_snapshot',
  description:
    'Text snapshot of the page from its accessibility tree: one line per element, `<uid> <role> "<name>" <attributes>`; pass the uid to other tools. Prefer it to a screenshot; take a new one after the page changes.',
  category: 'debugging',
  readOnly: false,
  readOnlyWithout: ['filePath'],
  changesPage: false,
  blockedByDialog: true,
  schema: {
    verbose: z
      .boolean()
      .optional()
      .describe('Include every node of the tree, not just the useful ones. Default false.'),
    uid: uidString()
      .optional()
      .describe('Only this element and what is inside it, with every option of long lists.'),
    filePath: z
      .string()
      .optional()
      .describe('Save the snapshot to this file instead of returning it.'),
    full: z
      .boolean()
      .optional()
      .describe(
        'The whole tree. Default false: a page you took a snapshot of before answers with what changed since.',
      ),
  },
  conditionParams: {full: 'snapshotDiffs'},
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    response.includeSnapshot({
      verbose: call.params.verbose ?? false,
      rootUid: call.params.uid,
      filePath: call.params.filePath,
      full: call.params.full,
      required: true,
    });
    return Promise.resolve();
  },
});

export const snapshotTools = [takeSnapshot];
