// The IRIs of the staging query (Content Delivery 1), as the vendor's delivery SDK builds and
// reads them: an item is `http://content.cms.amplience.com/<id>`, an image
// `http://image.cms.amplience.com/<id>`, a video `http://video.cms.amplience.com/<id>`. A module
// of its own so the CLI can share it.

export const IRI_BASE = 'http://content.cms.amplience.com/';
export const IMAGE_IRI_BASE = 'http://image.cms.amplience.com/';
export const VIDEO_IRI_BASE = 'http://video.cms.amplience.com/';
