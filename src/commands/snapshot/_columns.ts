import { col } from '../../output/result.js';

export const SNAPSHOT_COLUMNS = [
  col('id'),
  col('type'),
  col('comment'),
  col('root', 'rootContentItem.label'),
  col('root id', 'rootContentItem.id'),
  col('created', 'createdDate'),
];

/** Snapshot types as flags take them (the service wants them upper case). */
export const TYPES = ['user', 'system', 'generated'] as const;

/** Types a single create takes: generated is a listing filter, made only in batches. */
export const CREATE_TYPES = ['user', 'system'] as const;
