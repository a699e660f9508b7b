import { col } from '../../output/result.js';

export const HUB_COLUMNS = [col('id'), col('name'), col('label'), col('status'), col('created', 'createdDate')];
