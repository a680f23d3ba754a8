import { configGroup } from './commands/config.ts';
import { enhanceGroup } from './commands/enhance.ts';
import { modelsGroup } from './commands/models.ts';
import { transcribeGroup } from './commands/transcribe.ts';
import { historyGroup } from './commands/history.ts';
import { vocabularyGroup } from './commands/vocabulary.ts';
import { rulesGroup } from './commands/rules.ts';
import type { CliGroup } from './types.ts';

/** Every command group of `tingxie`. A new group is one file in commands/ plus one line here. */
export const COMMAND_GROUPS: readonly CliGroup[] = [
  configGroup,
  enhanceGroup,
  transcribeGroup,
  modelsGroup,
  historyGroup,
  vocabularyGroup,
  rulesGroup,
];
