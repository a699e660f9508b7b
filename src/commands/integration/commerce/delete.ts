import { deleteVerb } from '../_shared.js';

export default deleteVerb('commerce');
