import { getVerb } from '../_shared.js';

export default getVerb('marketing');
