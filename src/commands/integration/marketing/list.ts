import { listVerb } from '../_shared.js';

export default listVerb('marketing');
