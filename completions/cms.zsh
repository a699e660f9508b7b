#compdef cms
# zsh completion for cms. Generated from the command tree: do not edit.
# Install (from any shell): mkdir -p ~/.zsh/completions && cms completion zsh > ~/.zsh/completions/_cms
# then in ~/.zshrc, before compinit: fpath=(~/.zsh/completions $fpath)
typeset -gA _cms_subs _cms_opts _cms_vals _cms_args _cms_valopts
_cms_subs=(
  'cms' 'hub:Hubs\: the root of every other resource
repo:Content repositories of a hub
schema:Content type schemas (JSON Schema documents)
type:Content types\: registered schemas
folder:Folders in a repository
item:Content items\: create, version, search, localize, publish
workflow:Workflow states and their assignment to items
event:Events\: the planning containers of editions
edition:Editions\: planned publications of slots and snapshots
slot:Slots\: placeholders for content in editions
snapshot:Snapshots\: immutable copies of content graphs
job:Publishing jobs and bulk jobs
webhook:Webhooks and their delivery log
index:Search indexes, their settings and analytics
integration:Commerce and marketing platform integrations
migration:Content migrations as code\: dry run, apply, resume, undo, record
admin:Access administration and hub modules
extension:Extensions (dashboard and content field)
auth:Who you are to the service\: client, profile, hub, token
profile:Saved connections (profiles)
sandbox:The embedded local sandbox of the whole service
api:Make a raw request to the service (like gh api)
browse:Open the sandbox console at a resource (an item, edition, repository, hub or schema)
completion:Print the shell completion script for bash, zsh, fish or PowerShell
demo:Run a guided, realistic scenario on the embedded sandbox
login:Save a profile\: client credentials or a personal access token, API and auth URLs, default hub
runs:List bulk runs (import, copy, move, undo) with their status, hub, target and counts, newest first; `cms runs prune` removes old ones
undo:Revert what a bulk run did (import, copy, move)\: archive what it created, restore what it updated
version:Show the versions of the CLI, Node and the service (with its schema version)'
  'cms repo' 'features:Feature flags of a repository (e.g. slots)
create:Create a content repository in a hub
delete:Delete a repository and its content
find-by-feature:List the repositories of a hub that have a feature
get:Show a repository
list:List the repositories of a hub
locales:Show or set the item locales of a repository
localization-group:Show a repository'\''s localization group, or add another repository to it
share:Grant another client (user) permissions on a repository
update:Rename or relabel a repository'
  'cms index' 'types:Content types assigned to a search index
analytics:Read a search analytics report of an index
archive:Archive a search index (and its replicas)\: it keeps its records but takes no changes
clear:Remove every record of a search index (its replicas too)
create:Create a search index named <hub name>.<suffix>
delete-object:Remove one record from a search index (and its replicas)
delete:Delete a search index with its replicas, records, assigned types and their webhooks
get:Show a search index
key:Show the search API key of an index (for X-Search-Api-Key on queries)
list:List the search indexes of a hub
query:Search the records of an index (the sandbox stand-in for the search provider)
settings:Show the settings of a search index, or change them
stats:Show the records and usage figures of a search index
unarchive:Unarchive a search index (and its replicas)
update:Change the label of a search index'
  'cms integration' 'commerce:Commerce platform integrations
marketing:Marketing platform integrations
list:List every integration of a hub (commerce and marketing)'
  'cms sandbox' 'client:API clients of the sandbox (for permission testing)
clock:The sandbox clock that drives scheduling
snapshot:Whole-sandbox snapshots\: save, restore, list, delete
console:Print the URL of the sandbox console (and open it in the browser)
exec:Run a command with a sandbox served for it, then stop the sandbox
requests:Show the requests the served sandbox answered (its request journal, redacted)
reset:Delete everything in the sandbox (hubs, content, clients) and reset its clock
serve:Serve the sandbox over HTTP for other clients (SDKs, curl, CI)
status:Show the state of the sandbox the profile points at
stop:Stop the sandbox `cms sandbox serve --detach` started
trigger:Send a synthetic webhook event (signed and retried like a real one; no content changes)
wait:Wait until the served sandbox answers (exit 8 on timeout)'
  'cms hub' 'clean:Empty a hub as the vendor'\''s cleanup does\: archive its items, delete its folders, archive its types and schemas
clone:Copy a hub (settings, content model, repositories, folders, items, events, webhooks, search indexes) to another hub or service
create:Create a hub
delete:Delete a hub and everything in it
get:Show a hub
list:List the hubs this client can see
settings:Show or change the settings of a hub
share:Grant another client (user) permissions on a hub
update:Change the name, label or description of a hub'
  'cms repo features' 'add:Add a feature flag to a repository
remove:Remove a feature flag from a repository'
  'cms schema' 'apply:Apply a directory of schema files to a hub\: create, update (with a diff) or leave each schema
archive:Archive a content type schema (it can no longer be updated or registered)
create:Create a content type schema from a JSON Schema file, and optionally register and assign its type
get:Show a content type schema, or one of its versions
list:List the content type schemas of a hub
resolve:Print a schema with every reference to another schema of the hub inlined
unarchive:Unarchive a content type schema
update:Make a new version of a content type schema from a file and/or a validation level
versions:List the versions of a content type schema, newest first'
  'cms type' 'apply:Apply a directory of content type files to a hub\: register, update (with a diff) or leave each type
archive:Archive a content type\: no new items of it, no settings changes
assign:Assign a content type to a repository\: items of the type may then be created there
effective:Print the effective schema of a content type\: references inlined, allOf merged (same as type get --effective)
get:Show a content type (--effective\: its effective schema)
list:List the content types of a hub
register:Register a content type schema as a content type
schema:Print a content type'\''s cached schema\: the version its items are validated against
sync:Refresh a content type'\''s cached schema from the schema'\''s current version
unarchive:Unarchive a content type
unassign:Unassign a content type from a repository (its existing items stay)
update:Change the settings of a content type (label, icons, visualizations, cards)'
  'cms folder' 'create:Create a folder at the top of a repository, or inside another folder
delete:Delete an empty folder (one holding sub-folders or items is refused)
get:Show a folder
list:List the top-level folders of a repository, or the sub-folders of a folder
rename:Rename a folder'
  'cms item' 'archive:Archive a content item (unarchive brings it back)
bulk-update:Update many content items at once from a JSON file; prints a result per item
children:List a content item and every item its content links reach, root first
copy:Copy content items to another repository, folder, hub or profile (with what they link to)
create:Create a content item in a repository
delivery-key:Set or remove a content item'\''s delivery key (Content Delivery 2)
diff:Show how a content item changed between two versions (label, folder, locale, body, ...)
edit:Edit the body of a content item in your editor ($VISUAL or $EDITOR)
export:Export content items (with their types, schemas and folders) to a directory, one file per item
facet:Count content items per field value or date range (facets)
find:Search the content items of a hub by text
get:Show a content item (or one of its versions, or the item holding a delivery key), or what a site reads of it (--delivered)
graph:Print the staging graph of an item (or slot)\: it and its linked items at their latest versions, as the staging query answers
history:Show what made each version of a content item\: action, user and date
import:Import an export directory into a hub\: create or update its items, linked items first
list:List the content items of a repository
locale:Set a content item'\''s locale (one of its repository'\''s item locales, if it has any)
localizations:List the variants of a content item in other locales
localize:Localize a content item and the items it links to into other locales (a localization job)
move:Move content items to another repository, folder, hub or profile (copy, then archive the sources)
publish:Publish an item and everything it links to
render:Print an item (or slot) rendered as HTML by virtual staging (the latest version, not the published one)
restore:Restore an earlier version of a content item (as a new version)
unarchive:Unarchive a content item
unpublish:Take an item out of publication
update:Update a content item (a new version)
versions:List the versions of a content item, newest first'
  'cms workflow' 'assign:Set a content item'\''s workflow state
create:Create a workflow state
get:Show a workflow state
list:List the workflow states of a hub
unassign:Remove a content item'\''s workflow state
update:Change the label and/or colour of a workflow state'
  'cms event' 'archive:Archive an event (irreversible)\: it becomes read-only and its editions cannot be scheduled
create:Create an event\: a period (a sale, a season) that editions plan publications in
delete:Delete an event and its draft editions
get:Show an event
list:List the events of a hub
update:Change the name, dates, comment or brief of an event'
  'cms edition' 'archive:Archive an edition (irreversible)\: it can no longer change or be scheduled
collisions:List the slot collisions of an edition\: slots that editions overlapping it in time also use
conflicts:List the conflicts of an edition\: content items its snapshots hold at different versions
content:List the content snapshots of an edition, or add snapshots to it
create:Create a DRAFT edition in an event, or copy one
delete:Delete a DRAFT edition with its slots and content
get:Show an edition
list:List the upcoming editions of the hub, the editions of an event, or those in a date range
preview:Show, create or delete the preview of an edition
resolve:Resolve a conflict of an edition\: the version of a content item it publishes
schedule:Schedule a DRAFT edition to publish at its start (guided on a terminal)
slot-content:Put content into an edition slot\: links to snapshots
slots:List, add, copy or remove the slots of an edition
unschedule:Unschedule an edition\: back to DRAFT, its publishing job cancelled
update:Change a DRAFT edition\: name, dates, comment, content expiry'
  'cms slot' 'create:Create a slot in a slots repository
get:Show a slot
list:List the slots of a slots repository (its items of slot types)'
  'cms snapshot' 'batch:Snapshot several content items in one request
create:Snapshot a content item and everything it links to, at their current versions
get:Show a snapshot
item:Show a content item as a snapshot froze it
list:List the snapshots of a hub, newest first'
  'cms job' 'bulk-status:Show a bulk job\: its status and how many items succeeded
bulk:Run a bulk job on many content items of a hub (assign-users, copy-items, publish, unarchive, update-workflow)
cancel:Cancel a publishing job that has not run yet
create:Schedule the publication of a snapshot
get:Show a publishing job
list:List publishing jobs\: a snapshot'\''s, or the hub'\''s
wait:Wait until a publishing job finishes, showing its progress'
  'cms webhook' 'create:Create a webhook
delete:Delete a webhook and its delivery log
get:Show a webhook (its signing secret only with --show-secret; secret header values never)
list:List the webhooks of a hub
requests:List the delivery attempts of a webhook, newest first
update:Change a webhook (only the fields given)'
  'cms index types' 'add:Assign a content type to a search index (creates the webhooks that keep it current)
list:List the content types assigned to a search index
recreate-webhook:Replace the active or archived content webhook of an assigned content type
remove:Unassign a content type from a search index (its webhooks go; its records stay)'
  'cms integration commerce' 'campaigns:List the campaigns the commerce platform holds (one per scheduled edition), the latest start first
create:Create a commerce integration (and the webhook it owns)
delete:Delete a commerce integration with its webhook
get:Show a commerce integration (credential values are never shown)
list:List the commerce integrations of a hub
live:Which content the commerce platform shows on a slot at a time
update:Change a commerce integration (only the fields given; objects are replaced whole)'
  'cms integration marketing' 'create:Create a marketing integration (and the webhook it owns)
delete:Delete a marketing integration with its webhook
get:Show a marketing integration (credential values are never shown)
list:List the marketing integrations of a hub
update:Change a marketing integration (only the fields given; objects are replaced whole)'
  'cms migration' 'run:Run a content migration (a TS/JS file)\: a dry run with a diff by default, --apply to write it, journaled for --resume and cms undo
status:List the migrations the hub records as applied; with files, whether each is applied, changed since, or not applied'
  'cms admin' 'access:List the access operations on a hub or repository
enable:Enable a hub module\: the search index module or Content Delivery 2 (delivery keys)
member:Show the permissions one client holds on a hub or repository
members:List the clients holding permissions on a hub or repository
modules:List the modules of a hub and whether each is enabled
operations:List the administrative operations of the service
revoke:Revoke a client'\''s permissions on a hub or repository'
  'cms extension' 'create:Create an extension (name, label, url and category are required)
delete:Delete an extension
get-by-name:Show the extension of a hub with the given name
get:Show an extension
list:List the extensions of a hub
update:Change an extension (only the fields given)'
  'cms auth' 'status:Show who you are, which service and hub you reach, and when the token expires'
  'cms profile' 'list:List saved profiles (the current one is marked *)
protect:Protect a profile\: every write asks to type the hub'\''s name first (--yes without a terminal)
remove:Remove a saved profile
show:Show the connection a command would use, and where each value came from
unprotect:Remove a profile'\''s protection\: writes no longer ask first
use:Make a profile the current one (sandbox\: back to the embedded sandbox)'
  'cms sandbox client' 'create:Create a restricted API client in the sandbox
list:List the API clients of the sandbox (never their secrets)
token:Mint a personal access token for a sandbox client (to try `cms login --token`)'
  'cms sandbox clock' 'advance:Move the sandbox clock forward (or back) by a duration
freeze:Stop the sandbox clock where it is
reset:Put the sandbox clock back on real time (no offset, not frozen)
resume:Let a frozen sandbox clock run again from where it stopped
set:Set the sandbox clock to an instant (it keeps running from there unless frozen)
show:Show the sandbox clock'
  'cms sandbox snapshot' 'delete:Delete a named snapshot of the sandbox
list:List the named snapshots of the sandbox
restore:Replace everything in the sandbox with a snapshot (a name, or a file)
save:Save everything in the sandbox as a snapshot (a name, or a file)'
)
_cms_opts=(
  'cms' '--profile:use a saved profile
--hub:hub to work in
-o:output format
--output:output format
--query:JMESPath expression
--columns:table columns to show
--no-headers:tables without their header row
-q:print only ids
--quiet:print only ids
--utc:show and read dates in UTC
--no-color:disable colour
--no-input:never prompt
--debug:trace requests on stderr
--dry-run:print the request, send nothing
-h:show help
--help:show help'
  'cms hub clean' '-y:do not ask for confirmation
--yes:do not ask for confirmation
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms hub clone' '--from:source\: profile (or sandbox) and hub name or id; only read
--to:target\: profile (or sandbox) and hub name or id (created when missing; default name\: the source hub name)
--step:run only this step (repeatable or comma list)\: settings, workflow-states, extensions, schemas, types, repositories, folders, items, events, webhooks, search-indexes
--schedule:schedule on the target the editions scheduled in the source
--webhooks:inactive\: new webhooks are created inactive; active\: webhooks follow the source active flag
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms hub create' '--name:unique name (letters, digits, - and _)
--label:display label
--description:description
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms hub delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms hub get' ''
  'cms hub list' '--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms hub settings' '--virtual-staging:virtual staging environment hostname
--preview-virtual-staging:preview virtual staging environment hostname
--locales:comma-separated locales of the hub (e.g. en-GB,fr-FR)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms hub share' '--user:the client to grant to
--permission:READ, EDIT, DELETE, SHARE (comma list or repeated)'
  'cms hub update' '--name:new name
--label:new label
--description:new description
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms repo create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--name:name, unique in the hub
--label:display label
--feature:add a feature flag such as slots (repeatable)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms repo delete' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms repo find-by-feature' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms repo get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms repo list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms repo locales' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--clear:remove every item locale'
  'cms repo localization-group' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--add:repository (id or name) that leaves its group and joins this one'
  'cms repo share' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--user:the client to grant to
--permission:READ, EDIT, DELETE, SHARE (comma list or repeated)'
  'cms repo update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--name:new name
--label:new label
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms repo features add' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms repo features remove' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms schema apply' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--prune:archive what the hub has (active) and the files do not
--exit-code:exit 1 when the hub differed from the files (0 when in sync); with --dry-run a drift check
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms schema archive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms schema create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--file:the JSON Schema document (- for stdin)
--schema-id:the schema id URL (default\: the document'\''s id)
--validation-level:what the document is validated as
--register:also register the schema as a content type
--label:label of the registered content type (with --register)
--repo:assign the registered content type to this repository (with --register)'
  'cms schema get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--version:an earlier version
--document:print only the JSON Schema document'
  'cms schema list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--status:only these statuses (comma list of ACTIVE, ARCHIVED; default\: all)
--sort:sort order, e.g. createdDate,desc
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms schema resolve' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--file:the JSON Schema document (- for stdin)'
  'cms schema unarchive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms schema update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--file:the JSON Schema document (- for stdin)
--validation-level:what the document is validated as'
  'cms schema versions' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms type apply' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--prune:archive what the hub has (active) and the files do not
--exit-code:exit 1 when the hub differed from the files (0 when in sync); with --dry-run a drift check
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms type archive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms type assign' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:the repository (id or name)'
  'cms type effective' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms type get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--effective:print the effective schema (references inlined, allOf merged)'
  'cms type list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--status:only these statuses (comma list of ACTIVE, ARCHIVED; default\: all)
--sort:sort order, e.g. createdDate,desc
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms type register' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label of the content type
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms type schema' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms type sync' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms type unarchive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms type unassign' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:the repository (id or name)'
  'cms type update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:new label
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms folder create' '--name:folder name (required)
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:content repository
--parent:parent folder id'
  'cms folder delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms folder get' ''
  'cms folder list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:content repository
--parent:parent folder id
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms folder rename' ''
  'cms item archive' ''
  'cms item bulk-update' '--file:JSON array of updates (- for stdin)
--ignore-schema-validation:store bodies even if they break their content type schema'
  'cms item children' ''
  'cms item copy' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--to-repo:destination repository (in the destination hub)
--to-folder:destination folder (default\: the repository root)
--to-profile:destination profile\: another service or credentials (default\: the current one)
--to-hub:destination hub (default\: the source hub, or the destination profile'\''s hub)
--with-deps:also copy every item they link to, transitively, with links rewritten to the copies
--drop-delivery-keys:to another hub\: copy without the delivery keys (for a hub without the delivery module)
--enable-delivery-module:to another hub\: enable its delivery module (Content Delivery 2) when items carry delivery keys and it lacks it
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none
--repo:deprecated\: use --to-repo
--label:label of the copy (default\: the source label)
--version:version to copy (default\: latest)
--name:body._meta.name of the copy
--folder:deprecated\: use --to-folder
--locale:locale of the copy (default\: the source locale, if the destination accepts it)'
  'cms item create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:content repository (id or name)
--label:display label
--schema:content type URI (body._meta.schema)
--folder:folder of the repository to create it in
--locale:locale such as en-GB (one of the repository item locales, if it has any)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)
--link:set a body field to a content link to an item, typed with that item'\''s content type (hero=<id>; related=<id>,<id> or related[]=<id> for a list; repeatable)'
  'cms item delivery-key' '--remove:remove the key instead'
  'cms item diff' '--from:the older version (default\: the one before --to)
--to:the newer version (default\: the current one)'
  'cms item edit' '--ignore-schema-validation:save the body even if it breaks the content type schema'
  'cms item export' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:only this repository (repeatable or comma list)
--folder:only items in this folder and its sub-folders
--status:comma list of ACTIVE, ARCHIVED
--search:only items matching a text search (syntax of cms item find)
--facet:only items a facet filter lets through, e.g. locale\:IN\:en-GB (repeatable; syntax of cms item facet --field)
--with-deps:also export every item the selected items link to, transitively
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64)
--page-size:items per page request (at most 1000; larger pages hold more in memory)
--layout:layout to write\: cms, or dc-cli (the hosted service CLI'\''s content export)
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms item facet' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--field:a facet (repeatable), see above
--search:apply a text search first (the syntax of cms item find)
--entities:also return the matching items (see -o json)
--sort:order of the returned items\: createdDate, lastModifiedDate or label with ,asc or ,desc
--size:how many items to return with --entities (default 20)
--body-file:JSON request body from a file (- for stdin); flags override its fields'
  'cms item find' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--projection:basic\: items without their body (with the schema)
--sort:createdDate, lastModifiedDate or label with ,asc or ,desc (default\: relevance)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms item get' '--version:an earlier version
--key:find the item of the hub holding this delivery key
--delivered:the published version, as Content Delivery 2 answers a site
--depth:with --delivered\: root (the item alone) or all (with its linked items)
--format:with --delivered\: inlined (links replaced by items) or linked (linkedContent apart)
--locale:with --delivered\: localized fields as a site in this locale reads them (en-GB, or a list with wildcards\: en-US,en-*,*)
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms item graph' '--hub:the store (hub) to query; any hub when left out'
  'cms item history' '--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms item import' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:put every item in this repository (default\: the one named like its source repository)
--folder:put every item in this folder (default\: recreate the source folder paths)
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--publish:publish each imported item, and wait for the publishing jobs at the end
--layout:layout of the directory\: cms (a cms item export) or dc-cli (the hosted service CLI'\''s content export); default\: detected
--mapping-file:dc-cli'\''s mapping file\: its item ids are reused, and it is written back with this run'\''s
--drop-delivery-keys:import the items without their delivery keys (for a hub without the delivery module)
--enable-delivery-module:enable the delivery module (Content Delivery 2) on the hub when items carry delivery keys and it lacks it
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms item list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:content repository (id or name)
--folder:only items in this folder (implies its repository)
--status:only these statuses (comma list of ACTIVE, ARCHIVED; default\: all)
--sort:sort order, e.g. label,asc (default\: createdDate,desc)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)
-w:keep watching\: print again on each change (Ctrl-C ends it)
--watch:keep watching\: print again on each change (Ctrl-C ends it)
--interval:with --watch\: time between reads
--timeout:with --watch\: stop after this long'
  'cms item locale' ''
  'cms item localizations' '--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms item localize' '--locale:target locale (repeatable or comma list)
--wait:wait until the job finishes
--timeout:how long --wait waits (30s, 2m, or seconds)'
  'cms item move' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--to-repo:destination repository (in the destination hub)
--to-folder:destination folder (default\: the repository root)
--to-profile:destination profile\: another service or credentials (default\: the current one)
--to-hub:destination hub (default\: the source hub, or the destination profile'\''s hub)
--with-deps:also copy every item they link to, transitively, with links rewritten to the copies
--drop-delivery-keys:to another hub\: copy without the delivery keys (for a hub without the delivery module)
--enable-delivery-module:to another hub\: enable its delivery module (Content Delivery 2) when items carry delivery keys and it lacks it
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--dry-run:print what would change and change nothing (no write request is sent)
--resume:continue an interrupted run (see cms runs); its options are reused
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms item publish' '--wait:wait until the publishing job finishes and the item shows it published
--timeout:with --wait\: give up after this long (exit 8; 30s, 2m, or seconds)
--interval:with --wait\: time between polls'
  'cms item render' '--template:wrapper template
--hub:the item'\''s hub (found from the item when left out)'
  'cms item restore' '--version:the version to restore
--to:older name of --version'
  'cms item unarchive' ''
  'cms item unpublish' '--wait:wait until the item shows it unpublished
--timeout:with --wait\: give up after this long (exit 8; 30s, 2m, or seconds)
--interval:with --wait\: time between polls'
  'cms item update' '--label:new label
--folder:move to this folder of the repository
--locale:new locale
--assignee:assign to these users (repeatable or comma list; replaces the assignees)
--version:the version the change is based on (default\: the current one)
--ignore-schema-validation:store the body even if it breaks the content type schema
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)
--link:set a body field to a content link to an item, typed with that item'\''s content type (hero=<id>; related=<id>,<id> or related[]=<id> for a list; repeatable)'
  'cms item versions' '--oldest-first:list version 1 first
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms workflow assign' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms workflow create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label of the state
--color:rgb(r,g,b) or #rrggbb'
  'cms workflow get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms workflow list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms workflow unassign' ''
  'cms workflow update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:new label
--color:new colour\: rgb(r,g,b) or #rrggbb'
  'cms event archive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms event create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--name:name (1 to 255 characters)
--start:start\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--end:end\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--comment:comment (at most 250 characters)
--brief:link to the brief describing the event
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms event delete' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms event get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms event list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--sort:start, end, createdDate or name with ,asc or ,desc (default\: start,asc)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms event update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--name:new name
--start:start\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--end:end\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--comment:comment (at most 250 characters)
--brief:new brief link
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms edition archive' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms edition collisions' ''
  'cms edition conflicts' ''
  'cms edition content' '--add-snapshot:snapshot to add (repeatable)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms edition create' '--event:the event the edition belongs to
--name:name (1 to 120 characters)
--start:start\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--end:end\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--comment:comment (at most 250 characters)
--active-end-date:content expires when the edition ends (default\: it stays as fallback)
--copy-from:copy this edition (its slots, content, name and dates unless given)
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms edition delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms edition get' '-w:keep watching\: print again on each change (Ctrl-C ends it)
--watch:keep watching\: print again on each change (Ctrl-C ends it)
--interval:with --watch\: time between reads
--timeout:with --watch\: stop after this long'
  'cms edition list' '--event:the event whose editions to list
--from:range start\: now, today 09\:00, +2h, or a date-time (local unless it has Z or an offset); default\: now
--to:range end\: now, tomorrow 09\:00, +2h, or a date-time (local unless it has Z or an offset); default\: a year after --from
--within:only editions entirely within the range (default\: overlapping it)
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--sort:start, end, name, createdDate or publishingStatus with ,asc or ,desc (default\: start,asc)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms edition preview' '--create:create (or replace) the preview
--type:preview type
--delete:delete the preview
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms edition resolve' '--item:content item in conflict
--version:version to publish
--comment:why this version'
  'cms edition schedule' '--event:the event to pick the edition from
--start:publish at\: tomorrow 09\:00, +2h, or a date-time, local unless it has Z or an offset (default\: the edition start)
--ignore-warnings:schedule despite warnings (slot collisions, overlapping editions)
-y:do not ask for confirmation
--yes:do not ask for confirmation
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms edition slot-content' '--snapshot:snapshot to link (repeatable)
--property:slot schema property that holds the link(s)
--body-file:JSON request body from a file (- for stdin); flags override its fields'
  'cms edition slots' '--add:slot (content item id) to associate (repeatable)
--copy-from:edition slot of another edition to copy, content included
--remove:edition slot to take out of the edition
-y:do not ask for confirmation
--yes:do not ask for confirmation
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms edition unschedule' ''
  'cms edition update' '--name:new name (1 to 120 characters)
--start:start\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--end:end\: now, today 09\:00, tomorrow 09\:00, +<duration> from now on the service clock (+2h, +1d), or a date-time (2026-12-24T09\:00 is local time; add Z or an offset for UTC)
--comment:comment (at most 250 characters)
--active-end-date:content expires when the edition ends
--no-active-end-date:content stays as fallback after the edition ends
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms slot create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:slots repository (id or name)
--label:display label
--schema:slot type URI (body._meta.schema)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms slot get' ''
  'cms slot list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--repo:slots repository (id or name)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms snapshot batch' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--root:content item to snapshot (repeatable)
--comment:comment of every snapshot
--type:type of every snapshot
--body-file:JSON request body from a file (- for stdin); flags override its fields'
  'cms snapshot create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--root:content item at the root of the snapshot
--comment:what the snapshot is for
--type:snapshot type (generated ones come from cms snapshot batch)'
  'cms snapshot get' ''
  'cms snapshot item' ''
  'cms snapshot list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--type:only these types (comma list of user, system, generated)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms job bulk-status' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--results:print the result of each item'
  'cms job bulk' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--file:JSON selection\: an array of entries or {selection, workflow} (- for stdin)
--item:content item to include, at its current version (repeatable)
--assignee:assign-users\: a user to assign (repeatable)
--state:update-workflow\: the workflow state, or none to remove it
--repo:copy-items with --item\: the repository to copy into
--wait:wait for the job and print the result of each item
--timeout:with --wait\: give up after this long (exit 8; 30s, 2m, or seconds)'
  'cms job cancel' ''
  'cms job create' '--snapshot:snapshot to publish
--at:when\: now, tomorrow 09\:00, +2h, or a date-time (local unless it has Z or an offset); default now'
  'cms job get' '-w:keep watching\: print again on each change (Ctrl-C ends it)
--watch:keep watching\: print again on each change (Ctrl-C ends it)
--interval:with --watch\: time between reads
--timeout:with --watch\: stop after this long'
  'cms job list' '--snapshot:snapshot whose jobs to list (default\: every job of the hub)
--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms job wait' '--timeout:give up after this long (exit 8; 30s, 2m, or seconds)
--interval:time between polls (500ms, 2s, or seconds)'
  'cms webhook create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label
--event:event to deliver, e.g. content-item.published (repeatable or comma list)
--handler:URL that receives deliveries (repeatable)
--secret:signs deliveries\: X-Webhook-Signature = base64(HMAC-SHA256(secret, body)) (prefer --secret-stdin\: flags show in process lists)
--secret-stdin:read the signing secret from standard input
--header:custom header sent with each delivery (repeatable)
--secret-header:custom header whose value is never shown again (repeatable)
--method:HTTP method of deliveries
--active:deliver events
--no-active:keep the webhook but deliver nothing
--body-file:JSON webhook body from a file (- for stdin); flags override its fields
--set:set one field of the body (repeatable)'
  'cms webhook delete' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms webhook get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--show-secret:show the signing secret'
  'cms webhook list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms webhook requests' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)
-w:keep watching\: print again on each change (Ctrl-C ends it)
--watch:keep watching\: print again on each change (Ctrl-C ends it)
--interval:with --watch\: time between reads
--timeout:with --watch\: stop after this long'
  'cms webhook update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label
--event:event to deliver, e.g. content-item.published (repeatable or comma list)
--handler:URL that receives deliveries (repeatable)
--secret:signs deliveries\: X-Webhook-Signature = base64(HMAC-SHA256(secret, body)) (prefer --secret-stdin\: flags show in process lists)
--secret-stdin:read the signing secret from standard input
--header:custom header sent with each delivery (repeatable)
--secret-header:custom header whose value is never shown again (repeatable)
--method:HTTP method of deliveries
--active:deliver events
--no-active:keep the webhook but deliver nothing
--body-file:JSON webhook body from a file (- for stdin); flags override its fields
--set:set one field of the body (repeatable)'
  'cms index analytics' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--start:first day, YYYY-MM-DD
--end:last day, YYYY-MM-DD
--tags:analytics tags\: web, "web AND mobile", "(a OR b) AND c"
--include-replicas:count the searches of the replicas too (primary indexes only)
--limit:entries of a top list (0..1000, default 10)
--offset:entries of a top list to skip
--search:one exact search text (top-hits, top-filters-no-result-search)
--click-analytics:add click and conversion figures (top-searches)
--order-by:top-searches order
--direction:asc or desc (default desc)'
  'cms index archive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms index clear' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms index create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--suffix:the name after "<hub name>."
--label:label
--type:PRODUCTION or STAGING
--content-type:content type to assign (repeatable)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms index delete-object' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms index delete' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms index get' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms index key' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms index list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--primary:primary indexes only (no replicas)
--replicas-of:the replicas of one index (id, name or suffix)
--status:ACTIVE, ARCHIVED or both (comma list)
--with-settings:include each index settings
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms index query' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--filter:attribute\:value or attribute <op> number (repeatable, joined by AND)
--facet:facet filter; a comma list matches any of its values (repeatable, joined by AND)
--click-analytics:return a queryID for click and conversion events
--tag:analytics tag (repeatable)
--user:user token, for users-count
--hits-per-page:hits per page (default 20, or the index settings)
--page:page, from 0
--no-analytics:keep this query out of analytics'
  'cms index settings' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--body-file:settings JSON from a file (- for stdin)
--replicas:managed replica names, <hub name>.<name> (repeatable or comma list; "" for none)
--forward-to-replicas:also apply the settings sent to the replicas'
  'cms index stats' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--period:usage over the last day, week, month or year (default month)'
  'cms index unarchive' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms index update' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:new label (3 to 63 characters)'
  'cms index types add' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--type:content type URI of the hub'
  'cms index types list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms index types recreate-webhook' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--type:which webhook'
  'cms index types remove' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms integration list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms integration commerce campaigns' ''
  'cms integration commerce create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label (also labels its webhook)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms integration commerce delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms integration commerce get' ''
  'cms integration commerce list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms integration commerce live' '--slot:slot content item id
--at:now, tomorrow 09\:00, +2h, or a date-time, local unless it has Z or an offset (default\: now on the service clock)'
  'cms integration commerce update' '--label:label (also labels its webhook)
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms integration marketing create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--label:label (also labels its webhook)
--active:deliver to the platform
--no-active:keep the integration but deliver nothing
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms integration marketing delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms integration marketing get' ''
  'cms integration marketing list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms integration marketing update' '--label:label (also labels its webhook)
--active:deliver to the platform
--no-active:keep the integration but deliver nothing
--body-file:JSON request body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set body.title=Hello (repeatable; JSON values allowed)
--set-string:like --set, but the value is always text (--set-string body.code=007)'
  'cms migration run' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--apply:write the changes (default\: a dry run that writes nothing)
--from:run offline on an export directory (cms item export) instead of a hub
--out:with --from --apply\: where the result is written (default\: <export-dir>.migrated)
--resume:finish an interrupted --apply run (see cms runs)
--force:apply a migration the hub records as applied already (or resume a run whose file changed)
--publish:publish again each changed item that was published
--ignore-schema-validation:write bodies their content type schema refuses (default\: such items are skipped and reported)
--item-timeout:time limit of migrate() on one item (default 10s)\: past it the item fails
--exit-code:dry run\: exit 1 when the migration would change something (0 when nothing is left to do)
--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none'
  'cms migration status' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms admin access' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms admin enable' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms admin member' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms admin members' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms admin modules' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms admin operations' ''
  'cms admin revoke' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--permission:permissions to revoke, e.g. READ,EDIT (comma list or repeated)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms extension create' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--name:unique name in the hub (letters, digits, - and _)
--label:label
--url:http(s) URL the extension is served from
--category:where it appears
--description:description
--height:initial height
--parameters:parameters handed to the extension (usually JSON)
--settings:settings as a JSON string
--status:status
--body-file:JSON extension body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set snippets[0].label=Empty (repeatable)'
  'cms extension delete' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms extension get-by-name' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)'
  'cms extension get' ''
  'cms extension list' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--lite:only id, name, label, category and url of each
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)'
  'cms extension update' '--name:unique name in the hub (letters, digits, - and _)
--label:label
--url:http(s) URL the extension is served from
--category:where it appears
--description:description
--height:initial height
--parameters:parameters handed to the extension (usually JSON)
--settings:settings as a JSON string
--status:status
--body-file:JSON extension body from a file (- for stdin); flags override its fields
--set:set one field of the body, e.g. --set snippets[0].label=Empty (repeatable)'
  'cms auth status' ''
  'cms profile list' ''
  'cms profile protect' ''
  'cms profile remove' ''
  'cms profile show' ''
  'cms profile unprotect' ''
  'cms profile use' ''
  'cms sandbox console' '--port:port of the local `cms sandbox serve`, for the embedded sandbox (default\: the running one, else 8787)
--open:open the console in the system browser'
  'cms sandbox exec' '--seed:start from this snapshot file, or export directory (cms item export, dc-cli\: its hub, model and items, all or nothing)
--faults:inject faults (as cms sandbox serve --faults)
--faults-seed:seed for the fault dice
--data-dir:keep the data in this directory (default\: in memory, gone when the command ends)
--token-ttl:access token lifetime
--cors-origin:let pages of this origin (e.g. http\://localhost\:3000) read delivery with CORS (repeatable)\: Content Delivery 2 at /cdn/<hub> and the staging query, rendering and staging hosts'\'' delivery; * lets any origin read published content (/cdn) only; never the API, the token endpoint, /__sandbox or the console
--intercept:also answer the hosted service'\''s own hostnames (api/auth.amplience.net, <hub>.cdn.content.amplience.net, hubs'\'' staging hostnames) from the sandbox, through a proxy on 127.0.0.1 with a CA trusted only by the command (docs/testing-with-the-sandbox.md); other hosts pass through
--offline:with --intercept\: refuse every other host (naming it) instead of passing it through
--allow-webhook-to:let webhooks deliver to this host name, address or CIDR range (repeatable; * for anywhere), whoever wrote them; by default they reach public addresses, and loopback only when written by the admin client or a client with every permission (docs/threat-model.md)'
  'cms sandbox requests' '--method:only this HTTP method
--path:only paths matching the glob (* within a segment, ** across)
--status:only this status (404), class (4xx) or dropped
--client:only requests of this client
--faulted:only requests an injected fault struck
--limit:at most n requests (1-1000; without --follow)
-f:keep printing new requests as they arrive
--follow:keep printing new requests as they arrive
--interval:with --follow\: time between polls (500ms, 2s)
--for:with --follow\: stop after this long (exit 0)
--port:port of the local `cms sandbox serve`, for the embedded sandbox'
  'cms sandbox reset' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms sandbox serve' '--host:address to bind (other than loopback exposes the sandbox to the network)
--allow-host:also answer requests whose Host is this name (repeatable)\: name, name\:port, .domain (and its subdomains) or * (any); loopback names, the --host address and the hubs'\'' staging hostnames are always served
--cors-origin:let pages of this origin (e.g. http\://localhost\:3000) read delivery with CORS (repeatable)\: Content Delivery 2 at /cdn/<hub> and the staging query, rendering and staging hosts'\'' delivery; * lets any origin read published content (/cdn) only; never the API, the token endpoint, /__sandbox or the console
--intercept:also answer the hosted service'\''s own hostnames (api/auth.amplience.net, <hub>.cdn.content.amplience.net, hubs'\'' staging hostnames) from the sandbox, through a proxy on 127.0.0.1 with a CA trusted only by the command (docs/testing-with-the-sandbox.md); other hosts pass through
--offline:with --intercept\: refuse every other host (naming it) instead of passing it through
--allow-webhook-to:let webhooks deliver to this host name, address or CIDR range (repeatable; * for anywhere), whoever wrote them; by default they reach public addresses, and loopback only when written by the admin client or a client with every permission (docs/threat-model.md)
--port:port to listen on (0 picks a free one)
--data-dir:data directory (default\: CMS_DATA_DIR or ~/.local/share/cms)
--token-ttl:access token lifetime
--faults:inject faults, e.g. "429 10%; 503 5%; latency 200ms 20%; drop 1% on POST /v2/content/**" ("on * <path>" is every method; a rule that matches no operation is refused; also POST /__sandbox/faults)
--faults-seed:seed for the fault dice (same seed, same faults)
--seed:start from this snapshot file or export directory (cms item export, dc-cli); replaces what the data directory holds
--export-on-exit:save a snapshot of everything to this file when stopped (Ctrl-C, SIGTERM, cms sandbox stop)
--force:with --export-on-exit\: replace the file even when it is not a snapshot (refused otherwise, exit 2)
--detach:serve in the background\: print the -o json line once it answers, write sandbox.pid in the data directory
--pid-file:write the served JSON with its pid here while serving (what --detach uses)'
  'cms sandbox status' ''
  'cms sandbox stop' '--data-dir:data directory of the detached sandbox (default\: CMS_DATA_DIR or ~/.local/share/cms)'
  'cms sandbox trigger' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--item:the content item a content-item.* event is about
--edition:the edition an edition.* event is about
--snapshot:the snapshot a snapshot.published event is about
--webhook:deliver to this webhook only (whatever events it subscribes to)
--set:override a payload field (repeatable; JSON values allowed)'
  'cms sandbox wait' '--timeout:give up after this long (exit 8; 30s, 2m, or seconds)
--interval:time between tries
--data-dir:data directory of the detached sandbox (default\: CMS_DATA_DIR or ~/.local/share/cms)'
  'cms sandbox client create' '--id:client id
--secret:client secret (prefer --secret-stdin\: flags show in process lists)
--secret-stdin:read the client secret from standard input
--label:description of the client
--permission:functional permissions (comma list, repeatable; "all" for every one)
--acl:hub\:<id|name>\:<PERMS> or repo\:<id>\:<PERMS> (repeatable)'
  'cms sandbox client list' ''
  'cms sandbox client token' '--expires-in:lifetime on the sandbox clock\: 1s to 366d, e.g. 30m, 8h, 30d (default\: 1h)'
  'cms sandbox clock advance' ''
  'cms sandbox clock freeze' ''
  'cms sandbox clock reset' ''
  'cms sandbox clock resume' ''
  'cms sandbox clock set' ''
  'cms sandbox clock show' ''
  'cms sandbox snapshot delete' ''
  'cms sandbox snapshot list' ''
  'cms sandbox snapshot restore' '-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms sandbox snapshot save' '--force:replace the file even when it is not a snapshot'
  'cms api' '-F:typed field (JSON values parsed), repeatable
--field:typed field (JSON values parsed), repeatable
-f:string field, repeatable
--raw-field:string field, repeatable
--input:request body from a file (- for stdin), sent as is
-H:extra request header, repeatable
--header:extra request header, repeatable
--paginate:fetch every page of a collection and print the items as one array
-i:print the status line and response headers first
--include:print the status line and response headers first
--send-token:send the access token to an absolute URL on another host than the API (never sent there otherwise)
--repo:repository whose id fills {repo} in the path'
  'cms browse' '--no-browser:print the URL, do not open it
--port:port of the local `cms sandbox serve`, for the embedded sandbox (default\: the running one, else 8787)'
  'cms completion' ''
  'cms demo' '--hub:name of the demo hub'
  'cms login' '--client-id:API client id
--client-secret:API client secret (prefer --client-secret-stdin\: flags show in process lists)
--client-secret-stdin:read the client secret from standard input
--token:personal access token instead of client credentials (prefer --token-stdin\: flags show in process lists)
--token-stdin:read the personal access token from standard input
--api-url:API base URL, e.g. https\://api.example.com
--auth-url:authorization server URL (default\: the API origin)
--delivery-url:Content Delivery 2 URL, {hubName} for the hub name (default\: https\://{hubName}.cdn.content.amplience.net for the hosted service, {API origin}/cdn/{hubName} otherwise)
--hub:default hub of the profile
--sandbox:use the embedded sandbox (defaults to its admin client)
--protected:protect the profile\: every write asks to type the hub'\''s name first, and needs --yes without a terminal (see cms profile protect)
--no-verify:save without checking the credentials'
  'cms runs' '--hub:hub to work in (default\: CMS_HUB, the profile hub, or the only hub)
--limit:stop after n results (0 for all)
--all:every result (same as --limit 0)
--older-than:prune\: runs that finished longer ago than this (e.g. 30d, 12h)
--include-interrupted:prune\: interrupted runs too (they can no longer be resumed)
-y:do not ask for confirmation
--yes:do not ask for confirmation'
  'cms undo' '--concurrency:requests in flight at most (default\: start at 8 and grow while the service keeps up, up to 64; slows down by itself when the service pushes back)
--dry-run:print what would change and change nothing (no write request is sent)
--progress:progress on stderr\: auto (a bar on a terminal), bar, json (NDJSON events), none
-y:do not ask for confirmation
--yes:do not ask for confirmation
--resume:continue an interrupted undo (the id its interruption printed, see cms runs)'
  'cms version' ''
)
_cms_vals=(
  'cms --profile' '@profiles'
  'cms --hub' '@hubs'
  'cms -o' 'table wide json ndjson yaml'
  'cms --output' 'table wide json ndjson yaml'
  'cms hub clean --progress' 'auto bar json none'
  'cms hub clone --webhooks' 'inactive active'
  'cms hub clone --progress' 'auto bar json none'
  'cms repo create --hub' '@hubs'
  'cms repo delete --hub' '@hubs'
  'cms repo find-by-feature --hub' '@hubs'
  'cms repo get --hub' '@hubs'
  'cms repo list --hub' '@hubs'
  'cms repo locales --hub' '@hubs'
  'cms repo localization-group --hub' '@hubs'
  'cms repo share --hub' '@hubs'
  'cms repo update --hub' '@hubs'
  'cms repo features add --hub' '@hubs'
  'cms repo features remove --hub' '@hubs'
  'cms schema apply --hub' '@hubs'
  'cms schema apply --progress' 'auto bar json none'
  'cms schema archive --hub' '@hubs'
  'cms schema create --hub' '@hubs'
  'cms schema create --validation-level' 'CONTENT_TYPE SLOT PARTIAL'
  'cms schema create --repo' '@repositories'
  'cms schema get --hub' '@hubs'
  'cms schema list --hub' '@hubs'
  'cms schema resolve --hub' '@hubs'
  'cms schema unarchive --hub' '@hubs'
  'cms schema update --hub' '@hubs'
  'cms schema update --validation-level' 'CONTENT_TYPE SLOT PARTIAL'
  'cms schema versions --hub' '@hubs'
  'cms type apply --hub' '@hubs'
  'cms type apply --progress' 'auto bar json none'
  'cms type archive --hub' '@hubs'
  'cms type assign --hub' '@hubs'
  'cms type assign --repo' '@repositories'
  'cms type effective --hub' '@hubs'
  'cms type get --hub' '@hubs'
  'cms type list --hub' '@hubs'
  'cms type register --hub' '@hubs'
  'cms type schema --hub' '@hubs'
  'cms type sync --hub' '@hubs'
  'cms type unarchive --hub' '@hubs'
  'cms type unassign --hub' '@hubs'
  'cms type unassign --repo' '@repositories'
  'cms type update --hub' '@hubs'
  'cms folder create --hub' '@hubs'
  'cms folder create --repo' '@repositories'
  'cms folder list --hub' '@hubs'
  'cms folder list --repo' '@repositories'
  'cms item copy --hub' '@hubs'
  'cms item copy --to-repo' '@repositories'
  'cms item copy --progress' 'auto bar json none'
  'cms item copy --repo' '@repositories'
  'cms item create --hub' '@hubs'
  'cms item create --repo' '@repositories'
  'cms item export --hub' '@hubs'
  'cms item export --repo' '@repositories'
  'cms item export --layout' 'cms dc-cli'
  'cms item export --progress' 'auto bar json none'
  'cms item facet --hub' '@hubs'
  'cms item find --hub' '@hubs'
  'cms item find --projection' 'basic'
  'cms item get --depth' 'root all'
  'cms item get --format' 'inlined linked'
  'cms item get --hub' '@hubs'
  'cms item graph --hub' '@hubs'
  'cms item import --hub' '@hubs'
  'cms item import --repo' '@repositories'
  'cms item import --layout' 'cms dc-cli'
  'cms item import --progress' 'auto bar json none'
  'cms item list --hub' '@hubs'
  'cms item list --repo' '@repositories'
  'cms item move --hub' '@hubs'
  'cms item move --to-repo' '@repositories'
  'cms item move --progress' 'auto bar json none'
  'cms item render --hub' '@hubs'
  'cms workflow assign --hub' '@hubs'
  'cms workflow create --hub' '@hubs'
  'cms workflow get --hub' '@hubs'
  'cms workflow list --hub' '@hubs'
  'cms workflow update --hub' '@hubs'
  'cms event archive --hub' '@hubs'
  'cms event create --hub' '@hubs'
  'cms event delete --hub' '@hubs'
  'cms event get --hub' '@hubs'
  'cms event list --hub' '@hubs'
  'cms event update --hub' '@hubs'
  'cms edition create --event' '@events'
  'cms edition create --hub' '@hubs'
  'cms edition list --event' '@events'
  'cms edition list --hub' '@hubs'
  'cms edition schedule --event' '@events'
  'cms edition schedule --hub' '@hubs'
  'cms slot create --hub' '@hubs'
  'cms slot create --repo' '@repositories'
  'cms slot list --hub' '@hubs'
  'cms slot list --repo' '@repositories'
  'cms snapshot batch --hub' '@hubs'
  'cms snapshot batch --type' 'user system generated'
  'cms snapshot create --hub' '@hubs'
  'cms snapshot create --type' 'user system'
  'cms snapshot list --hub' '@hubs'
  'cms job bulk-status --hub' '@hubs'
  'cms job bulk --hub' '@hubs'
  'cms job bulk --repo' '@repositories'
  'cms job list --hub' '@hubs'
  'cms webhook create --hub' '@hubs'
  'cms webhook create --method' 'POST PUT PATCH DELETE'
  'cms webhook delete --hub' '@hubs'
  'cms webhook get --hub' '@hubs'
  'cms webhook list --hub' '@hubs'
  'cms webhook requests --hub' '@hubs'
  'cms webhook update --hub' '@hubs'
  'cms webhook update --method' 'POST PUT PATCH DELETE'
  'cms index analytics --hub' '@hubs'
  'cms index analytics --order-by' 'searchCount clickThroughRate conversionRate averageClickPosition'
  'cms index analytics --direction' 'asc desc'
  'cms index archive --hub' '@hubs'
  'cms index clear --hub' '@hubs'
  'cms index create --hub' '@hubs'
  'cms index create --type' 'PRODUCTION STAGING'
  'cms index delete-object --hub' '@hubs'
  'cms index delete --hub' '@hubs'
  'cms index get --hub' '@hubs'
  'cms index key --hub' '@hubs'
  'cms index list --hub' '@hubs'
  'cms index query --hub' '@hubs'
  'cms index settings --hub' '@hubs'
  'cms index stats --hub' '@hubs'
  'cms index stats --period' 'day week month year'
  'cms index unarchive --hub' '@hubs'
  'cms index update --hub' '@hubs'
  'cms index types add --hub' '@hubs'
  'cms index types list --hub' '@hubs'
  'cms index types recreate-webhook --hub' '@hubs'
  'cms index types recreate-webhook --type' 'active archived'
  'cms index types remove --hub' '@hubs'
  'cms integration list --hub' '@hubs'
  'cms integration commerce create --hub' '@hubs'
  'cms integration commerce list --hub' '@hubs'
  'cms integration marketing create --hub' '@hubs'
  'cms integration marketing list --hub' '@hubs'
  'cms migration run --hub' '@hubs'
  'cms migration run --progress' 'auto bar json none'
  'cms migration status --hub' '@hubs'
  'cms admin access --hub' '@hubs'
  'cms admin enable --hub' '@hubs'
  'cms admin member --hub' '@hubs'
  'cms admin members --hub' '@hubs'
  'cms admin modules --hub' '@hubs'
  'cms admin revoke --hub' '@hubs'
  'cms extension create --hub' '@hubs'
  'cms extension create --category' 'CONTENT_FIELD DASHBOARD'
  'cms extension create --status' 'ACTIVE ARCHIVED'
  'cms extension get-by-name --hub' '@hubs'
  'cms extension list --hub' '@hubs'
  'cms extension update --category' 'CONTENT_FIELD DASHBOARD'
  'cms extension update --status' 'ACTIVE ARCHIVED'
  'cms sandbox trigger --hub' '@hubs'
  'cms api --repo' '@repositories'
  'cms runs --hub' '@hubs'
  'cms undo --progress' 'auto bar json none'
)
_cms_args=(
  'cms hub clean' '@hubs'
  'cms hub delete' '@hubs'
  'cms hub get' '@hubs'
  'cms hub settings' '@hubs'
  'cms hub share' '@hubs'
  'cms hub update' '@hubs'
  'cms repo delete' '@repositories'
  'cms repo get' '@repositories'
  'cms repo locales' '@repositories'
  'cms repo localization-group' '@repositories'
  'cms repo share' '@repositories'
  'cms repo update' '@repositories'
  'cms repo features add' '@repositories'
  'cms repo features remove' '@repositories'
  'cms event archive' '@events'
  'cms event delete' '@events'
  'cms event get' '@events'
  'cms event update' '@events'
  'cms edition archive' '@editions'
  'cms edition collisions' '@editions'
  'cms edition conflicts' '@editions'
  'cms edition content' '@editions'
  'cms edition delete' '@editions'
  'cms edition get' '@editions'
  'cms edition preview' '@editions'
  'cms edition resolve' '@editions'
  'cms edition schedule' '@draft-editions'
  'cms edition slot-content' '@editions'
  'cms edition slots' '@editions'
  'cms edition unschedule' '@editions'
  'cms edition update' '@editions'
  'cms job bulk' 'assign-users copy-items publish unarchive update-workflow'
  'cms admin access' 'hubs content-repositories'
  'cms admin enable' 'search-index content-delivery-2'
  'cms admin member' 'hubs content-repositories'
  'cms admin members' 'hubs content-repositories'
  'cms admin revoke' 'hubs content-repositories'
  'cms sandbox trigger' '@events'
  'cms completion' 'bash zsh fish powershell'
)
_cms_valopts=(
  'cms' ' --profile --hub -o --output --query --columns '
  'cms hub clean' ' --resume --progress '
  'cms hub clone' ' --from --to --step --webhooks --concurrency --resume --progress '
  'cms hub create' ' --name --label --description --body-file --set --set-string '
  'cms hub list' ' --limit '
  'cms hub settings' ' --virtual-staging --preview-virtual-staging --locales --body-file --set --set-string '
  'cms hub share' ' --user --permission '
  'cms hub update' ' --name --label --description --body-file --set --set-string '
  'cms repo create' ' --hub --name --label --feature --body-file --set --set-string '
  'cms repo delete' ' --hub '
  'cms repo find-by-feature' ' --hub --limit '
  'cms repo get' ' --hub '
  'cms repo list' ' --hub --limit '
  'cms repo locales' ' --hub '
  'cms repo localization-group' ' --hub --add '
  'cms repo share' ' --hub --user --permission '
  'cms repo update' ' --hub --name --label --body-file --set --set-string '
  'cms repo features add' ' --hub '
  'cms repo features remove' ' --hub '
  'cms schema apply' ' --hub --resume --progress '
  'cms schema archive' ' --hub '
  'cms schema create' ' --hub --file --schema-id --validation-level --label --repo '
  'cms schema get' ' --hub --version '
  'cms schema list' ' --hub --status --sort --limit '
  'cms schema resolve' ' --hub --file '
  'cms schema unarchive' ' --hub '
  'cms schema update' ' --hub --file --validation-level '
  'cms schema versions' ' --hub --limit '
  'cms type apply' ' --hub --resume --progress '
  'cms type archive' ' --hub '
  'cms type assign' ' --hub --repo '
  'cms type effective' ' --hub '
  'cms type get' ' --hub '
  'cms type list' ' --hub --status --sort --limit '
  'cms type register' ' --hub --label --body-file --set --set-string '
  'cms type schema' ' --hub '
  'cms type sync' ' --hub '
  'cms type unarchive' ' --hub '
  'cms type unassign' ' --hub --repo '
  'cms type update' ' --hub --label --body-file --set --set-string '
  'cms folder create' ' --name --hub --repo --parent '
  'cms folder list' ' --hub --repo --parent --limit '
  'cms item bulk-update' ' --file '
  'cms item copy' ' --hub --to-repo --to-folder --to-profile --to-hub --concurrency --resume --progress --repo --label --version --name --folder --locale '
  'cms item create' ' --hub --repo --label --schema --folder --locale --body-file --set --set-string --link '
  'cms item diff' ' --from --to '
  'cms item export' ' --hub --repo --folder --status --search --facet --concurrency --page-size --layout --progress '
  'cms item facet' ' --hub --field --search --sort --size --body-file '
  'cms item find' ' --hub --projection --sort --limit '
  'cms item get' ' --version --key --depth --format --locale --hub '
  'cms item graph' ' --hub '
  'cms item history' ' --limit '
  'cms item import' ' --hub --repo --folder --concurrency --layout --mapping-file --resume --progress '
  'cms item list' ' --hub --repo --folder --status --sort --limit --interval --timeout '
  'cms item localizations' ' --limit '
  'cms item localize' ' --locale --timeout '
  'cms item move' ' --hub --to-repo --to-folder --to-profile --to-hub --concurrency --resume --progress '
  'cms item publish' ' --timeout --interval '
  'cms item render' ' --template --hub '
  'cms item restore' ' --version --to '
  'cms item unpublish' ' --timeout --interval '
  'cms item update' ' --label --folder --locale --assignee --version --body-file --set --set-string --link '
  'cms item versions' ' --limit '
  'cms workflow assign' ' --hub '
  'cms workflow create' ' --hub --label --color '
  'cms workflow get' ' --hub '
  'cms workflow list' ' --hub --limit '
  'cms workflow update' ' --hub --label --color '
  'cms event archive' ' --hub '
  'cms event create' ' --hub --name --start --end --comment --brief --body-file --set --set-string '
  'cms event delete' ' --hub '
  'cms event get' ' --hub '
  'cms event list' ' --hub --sort --limit '
  'cms event update' ' --hub --name --start --end --comment --brief --body-file --set --set-string '
  'cms edition content' ' --add-snapshot --limit '
  'cms edition create' ' --event --name --start --end --comment --copy-from --hub --body-file --set --set-string '
  'cms edition get' ' --interval --timeout '
  'cms edition list' ' --event --from --to --hub --sort --limit '
  'cms edition preview' ' --type '
  'cms edition resolve' ' --item --version --comment '
  'cms edition schedule' ' --event --start --hub '
  'cms edition slot-content' ' --snapshot --property --body-file '
  'cms edition slots' ' --add --copy-from --remove --limit '
  'cms edition update' ' --name --start --end --comment --body-file --set --set-string '
  'cms slot create' ' --hub --repo --label --schema --body-file --set --set-string '
  'cms slot list' ' --hub --repo --limit '
  'cms snapshot batch' ' --hub --root --comment --type --body-file '
  'cms snapshot create' ' --hub --root --comment --type '
  'cms snapshot list' ' --hub --type --limit '
  'cms job bulk-status' ' --hub '
  'cms job bulk' ' --hub --file --item --assignee --state --repo --timeout '
  'cms job create' ' --snapshot --at '
  'cms job get' ' --interval --timeout '
  'cms job list' ' --snapshot --hub --limit '
  'cms job wait' ' --timeout --interval '
  'cms webhook create' ' --hub --label --event --handler --secret --header --secret-header --method --body-file --set '
  'cms webhook delete' ' --hub '
  'cms webhook get' ' --hub '
  'cms webhook list' ' --hub --limit '
  'cms webhook requests' ' --hub --limit --interval --timeout '
  'cms webhook update' ' --hub --label --event --handler --secret --header --secret-header --method --body-file --set '
  'cms index analytics' ' --hub --start --end --tags --limit --offset --search --order-by --direction '
  'cms index archive' ' --hub '
  'cms index clear' ' --hub '
  'cms index create' ' --hub --suffix --label --type --content-type --body-file --set --set-string '
  'cms index delete-object' ' --hub '
  'cms index delete' ' --hub '
  'cms index get' ' --hub '
  'cms index key' ' --hub '
  'cms index list' ' --hub --replicas-of --status --limit '
  'cms index query' ' --hub --filter --facet --tag --user --hits-per-page --page '
  'cms index settings' ' --hub --body-file --replicas '
  'cms index stats' ' --hub --period '
  'cms index unarchive' ' --hub '
  'cms index update' ' --hub --label '
  'cms index types add' ' --hub --type '
  'cms index types list' ' --hub '
  'cms index types recreate-webhook' ' --hub --type '
  'cms index types remove' ' --hub '
  'cms integration list' ' --hub --limit '
  'cms integration commerce create' ' --hub --label --body-file --set --set-string '
  'cms integration commerce list' ' --hub --limit '
  'cms integration commerce live' ' --slot --at '
  'cms integration commerce update' ' --label --body-file --set --set-string '
  'cms integration marketing create' ' --hub --label --body-file --set --set-string '
  'cms integration marketing list' ' --hub --limit '
  'cms integration marketing update' ' --label --body-file --set --set-string '
  'cms migration run' ' --hub --from --out --resume --item-timeout --concurrency --progress '
  'cms migration status' ' --hub '
  'cms admin access' ' --hub '
  'cms admin enable' ' --hub '
  'cms admin member' ' --hub '
  'cms admin members' ' --hub --limit '
  'cms admin modules' ' --hub '
  'cms admin revoke' ' --hub --permission '
  'cms extension create' ' --hub --name --label --url --category --description --height --parameters --settings --status --body-file --set '
  'cms extension get-by-name' ' --hub '
  'cms extension list' ' --hub --limit '
  'cms extension update' ' --name --label --url --category --description --height --parameters --settings --status --body-file --set '
  'cms sandbox console' ' --port '
  'cms sandbox exec' ' --seed --faults --faults-seed --data-dir --token-ttl --cors-origin --allow-webhook-to '
  'cms sandbox requests' ' --method --path --status --client --limit --interval --for --port '
  'cms sandbox serve' ' --host --allow-host --cors-origin --allow-webhook-to --port --data-dir --token-ttl --faults --faults-seed --seed --export-on-exit --pid-file '
  'cms sandbox stop' ' --data-dir '
  'cms sandbox trigger' ' --hub --item --edition --snapshot --webhook --set '
  'cms sandbox wait' ' --timeout --interval --data-dir '
  'cms sandbox client create' ' --id --secret --label --permission --acl '
  'cms sandbox client token' ' --expires-in '
  'cms api' ' -F --field -f --raw-field --input -H --header --repo '
  'cms browse' ' --port '
  'cms demo' ' --hub '
  'cms login' ' --client-id --client-secret --token --api-url --auth-url --delivery-url --hub '
  'cms runs' ' --hub --limit --older-than '
  'cms undo' ' --concurrency --progress --resume '
)

_cms() {
  # The user's options (GLOB_SUBST, SH_WORD_SPLIT...) must not reach the candidates.
  emulate -L zsh
  local cmdpath=cms word next i positional=0 hub= profile=
  for ((i = 2; i < CURRENT; i++)); do
    word=${(Q)words[i]}
    case $word in
      --hub=*) hub=${word#--hub=}; continue ;;
      --profile=*) profile=${word#--profile=}; continue ;;
      -*)
        if [[ "${_cms_valopts[$cmdpath]} ${_cms_valopts[cms]}" == *" $word "* ]] && (( i + 1 < CURRENT )); then
          (( i++ ))
          [[ $word == --hub ]] && hub=${(Q)words[i]}
          [[ $word == --profile ]] && profile=${(Q)words[i]}
        fi
        continue ;;
    esac
    next="$cmdpath $word"
    if (( ${+_cms_subs[$next]} || ${+_cms_opts[$next]} )); then cmdpath=$next; else (( positional++ )); fi
  done
  local prev=${(Q)words[CURRENT-1]} cur=${(Q)words[CURRENT]}
  local values=${_cms_vals[$cmdpath $prev]:-${_cms_vals[cms $prev]}}
  # The value of an option with no candidates (a date, a name to invent): nothing to offer.
  [[ -z $values && "${_cms_valopts[$cmdpath]} ${_cms_valopts[cms]}" == *" $prev "* ]] && return
  if [[ -z $values && $cur != -* && $positional -eq 0 && -z ${_cms_subs[$cmdpath]} ]]; then values=${_cms_args[$cmdpath]}; fi
  if [[ $values == @* ]]; then
    local -a args lines found shown
    local line
    [[ -n $profile ]] && args+=("--profile=$profile")
    args+=(__complete "${values#@}")
    [[ -n $hub ]] && args+=("--hub=$hub")
    lines=("${(@f)$(cms "${args[@]}" 2>/dev/null)}")
    for line in "${lines[@]}"; do
      [[ -n $line ]] || continue
      found+=("${line%%$'\t'*}")
      shown+=("${line%%$'\t'*}  -- ${line#*$'\t'}")
    done
    # Without -Q compadd quotes each word as it inserts it; -d only changes what is listed.
    (( ${#found} )) && compadd -l -d shown -- "${found[@]}"
    return
  elif [[ -n $values ]]; then
    compadd -- ${=values}
    return
  fi
  local -a items
  if [[ $cur == -* ]]; then
    items=(${(f)_cms_opts[$cmdpath]} ${(f)_cms_opts[cms]})
    _describe -t options option items
  else
    items=(${(f)_cms_subs[$cmdpath]})
    _describe -t commands command items
  fi
}
compdef _cms cms
