import { updateVerb } from '../_shared.js';

export default updateVerb('commerce');
