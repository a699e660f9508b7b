import { col } from '../../output/result.js';

export const JOB_COLUMNS = [col('id'), col('state'), col('scheduled', 'scheduledDate'), col('snapshot', 'snapshotId'), col('edition', 'editionId'), col('created', 'createdDate')];
