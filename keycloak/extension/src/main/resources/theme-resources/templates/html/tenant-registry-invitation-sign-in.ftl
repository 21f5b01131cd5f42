<#import "template.ftl" as layout>
<@layout.emailLayout>
<p>${msg("tenantRegistryInvitationSignInBody", organizationName)}</p>
<p><a href="${link}">${msg("tenantRegistryInvitationSignInLink")}</a></p>
<p>${msg("tenantRegistryInvitationSignInExpiry", linkExpirationFormatter(linkExpiration))}</p>
<p>${msg("tenantRegistryInvitationSignInIgnore")}</p>
</@layout.emailLayout>
