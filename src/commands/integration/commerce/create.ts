import { createVerb } from '../_shared.js';

export default createVerb('commerce');
