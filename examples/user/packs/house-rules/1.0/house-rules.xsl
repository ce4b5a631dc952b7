<?xml version="1.0" encoding="UTF-8"?>
<!-- Example house rules, compiled by hand from house-rules.sch (same directory) in the shape of the ISO Schematron
     skeleton's XSLT 2.0 output, so that einvoice-validate's install-time preparation (rulesets/prepare.py) applies
     to it as to the official packs. Written for einvoice-validate; no upstream. -->
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
    xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
    xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" version="2.0">
  <xsl:output indent="yes" method="xml" omit-xml-declaration="no" standalone="yes"/>

  <!-- locations: the full path of the context node, as the skeleton writes it -->
  <xsl:template match="*" mode="schematron-get-full-path">
    <xsl:apply-templates mode="schematron-get-full-path" select="parent::*"/>
    <xsl:text>/</xsl:text>
    <xsl:choose>
      <xsl:when test="namespace-uri()=''">
        <xsl:value-of select="name()"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>*:</xsl:text>
        <xsl:value-of select="local-name()"/>
        <xsl:text>[namespace-uri()='</xsl:text>
        <xsl:value-of select="namespace-uri()"/>
        <xsl:text>']</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:variable name="preceding"
        select="count(preceding-sibling::*[local-name()=local-name(current()) and namespace-uri() = namespace-uri(current())])"/>
    <xsl:text>[</xsl:text>
    <xsl:value-of select="1+ $preceding"/>
    <xsl:text>]</xsl:text>
  </xsl:template>

  <xsl:template match="text()" priority="-1"/>

  <xsl:template match="/">
    <svrl:schematron-output schemaVersion="iso" title="Example house rules (UBL Invoice)">
      <svrl:ns-prefix-in-attribute-values prefix="ubl" uri="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>
      <svrl:ns-prefix-in-attribute-values prefix="cac" uri="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"/>
      <svrl:ns-prefix-in-attribute-values prefix="cbc" uri="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"/>
      <svrl:active-pattern>
        <xsl:attribute name="document">
          <xsl:value-of select="document-uri(/)"/>
        </xsl:attribute>
        <xsl:attribute name="id">house</xsl:attribute>
        <xsl:attribute name="name">house</xsl:attribute>
        <xsl:apply-templates/>
      </svrl:active-pattern>
      <xsl:apply-templates mode="M1" select="/"/>
    </svrl:schematron-output>
  </xsl:template>

  <!-- pattern house -->
  <xsl:template match="/ubl:Invoice" mode="M1" priority="1001">
    <svrl:fired-rule context="/ubl:Invoice"/>
    <xsl:choose>
      <xsl:when test="normalize-space(cac:OrderReference/cbc:ID) != ''"/>
      <xsl:otherwise>
        <svrl:failed-assert test="normalize-space(cac:OrderReference/cbc:ID) != ''">
          <xsl:attribute name="id">HOUSE-01</xsl:attribute>
          <xsl:attribute name="flag">fatal</xsl:attribute>
          <xsl:attribute name="location">
            <xsl:apply-templates mode="schematron-get-full-path" select="."/>
          </xsl:attribute>
          <svrl:text>[HOUSE-01]-The buyer's purchase order reference (BT-13) is mandatory for us.</svrl:text>
        </svrl:failed-assert>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:apply-templates mode="M1" select="@*|*"/>
  </xsl:template>

  <xsl:template match="cac:InvoiceLine/cac:Item/cac:SellersItemIdentification/cbc:ID" mode="M1" priority="1000">
    <svrl:fired-rule context="cac:InvoiceLine/cac:Item/cac:SellersItemIdentification/cbc:ID"/>
    <xsl:choose>
      <xsl:when test="matches(normalize-space(.), '^[A-Z]{3}-[0-9]{5}$')"/>
      <xsl:otherwise>
        <svrl:failed-assert test="matches(normalize-space(.), '^[A-Z]{3}-[0-9]{5}$')">
          <xsl:attribute name="id">HOUSE-02</xsl:attribute>
          <xsl:attribute name="flag">warning</xsl:attribute>
          <xsl:attribute name="location">
            <xsl:apply-templates mode="schematron-get-full-path" select="."/>
          </xsl:attribute>
          <svrl:text>[HOUSE-02]-Item seller identifiers (BT-155) should follow our format ABC-12345.</svrl:text>
        </svrl:failed-assert>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:apply-templates mode="M1" select="@*|*"/>
  </xsl:template>

  <xsl:template match="text()" mode="M1" priority="-1"/>
  <xsl:template match="@*|node()" mode="M1" priority="-2">
    <xsl:apply-templates mode="M1" select="@*|*"/>
  </xsl:template>
</xsl:stylesheet>
